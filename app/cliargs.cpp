// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "cliargs.h"

#include "import/memorybudget.h"
#include "util/countof.h"

#include <QCommandLineParser>
#include <QRegularExpression>

#include <limits>

namespace stepscope::app {

namespace {

using Action = ParseOutcome::Action;

ParseOutcome error(const QString &command, const QString &why)
{
    return {Action::Error, QStringLiteral("stepscope %1: %2").arg(command, why)};
}

/// The parser's help with our own usage line (the program name is not argv[0] here).
QString helpOf(const QCommandLineParser &parser, const QString &usage, const QString &what)
{
    QString text = parser.helpText();
    const qsizetype firstLineEnd = text.indexOf(QLatin1Char('\n'));
    text = text.mid(firstLineEnd + 1);
    return QStringLiteral("Usage: stepscope %1\n%2\n\n%3\n")
        .arg(usage, what.trimmed(), text.trimmed());
}

/// Parses; on --help or a parse error fills `outcome` and returns false.
bool parseInto(QCommandLineParser &parser, const QStringList &arguments, const QString &usage,
    const QString &what, ParseOutcome *outcome)
{
    const QCommandLineOption help(
        {QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Print this help and exit."));
    parser.addOption(help);
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    // The command name stands where QCommandLineParser expects the program name.
    if (!parser.parse(arguments)) {
        *outcome = error(arguments.value(0), parser.errorText());
        return false;
    }
    if (parser.isSet(help)) {
        *outcome = {Action::Help, helpOf(parser, usage, what)};
        return false;
    }
    return true;
}

/// A whole int64 from `text`, or nullopt ("12x", "", "99999999999999999999").
std::optional<std::int64_t> toInt64(const QString &text)
{
    bool ok = false;
    const qlonglong v = text.toLongLong(&ok);
    return ok ? std::optional<std::int64_t>(v) : std::nullopt;
}

/// The one PATH argument of a command into `path`, or the usage error when there is none or
/// more than one.
std::optional<ParseOutcome> onePath(
    const QCommandLineParser &parser, const QString &command, std::string *path)
{
    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty())
        return error(command, QStringLiteral("missing PATH"));
    if (positional.size() > 1)
        return error(command, QStringLiteral("one PATH expected, got also %1").arg(positional[1]));
    *path = positional.front().toStdString();
    return std::nullopt;
}

/// One option of a command: its name, its help line and, for an option with a value, the
/// value's name in the help ("DIR"); nullptr for a flag. Texts are UTF-8.
struct OptionSpec
{
    const char *name;
    const char *description;
    const char *valueName = nullptr;
};

/// The options of one command, added to its parser in table order (the help lists them in
/// that order) and read back by name.
class CommandOptions
{
public:
    CommandOptions(QCommandLineParser &parser, std::initializer_list<OptionSpec> specs)
        : m_parser(parser)
    {
        for (const OptionSpec &o : specs) {
            const QString name = QString::fromUtf8(o.name);
            const QString description = QString::fromUtf8(o.description);
            m_parser.addOption(o.valueName
                    ? QCommandLineOption(name, description, QString::fromUtf8(o.valueName))
                    : QCommandLineOption(name, description));
        }
    }
    bool isSet(const char *name) const { return m_parser.isSet(QString::fromUtf8(name)); }
    QString value(const char *name) const { return m_parser.value(QString::fromUtf8(name)); }

private:
    QCommandLineParser &m_parser;
};

/// The help lines of --ranks and --no-memory-check.
constexpr const char *RanksHelp = "Read only these ranks, e.g. 0-7,12 (a memory-budget refusal "
                                  "names the ranks that fit).";
constexpr const char *NoMemoryCheckHelp =
    "Load even when the memory estimate says the profile does not fit in the available memory.";

/// --ranks and --no-memory-check of `parser` into `out`; the error naming the option when the
/// list is not one.
std::optional<ParseOutcome> readLoadLimits(
    const QCommandLineParser &parser, const QString &command, LoadLimits *out)
{
    const QString ranks = QStringLiteral("ranks");
    if (parser.isSet(ranks)) {
        const auto list = parseRankListOption(parser.value(ranks));
        if (!list)
            return error(command, rankListError(parser.value(ranks)));
        out->ranks = *list;
    }
    out->memoryCheck = !parser.isSet(QStringLiteral("no-memory-check"));
    return std::nullopt;
}

} // namespace

std::optional<std::vector<std::int32_t>> parseRankListOption(const QString &text)
{
    return import::parseRankList(text.toStdString());
}

QString rankListError(const QString &text)
{
    return QStringLiteral("--ranks takes a list of ranks such as 0-7,12, got \"%1\"").arg(text);
}

import::LoadOptions LoadLimits::loadOptions() const {import::LoadOptions options;
options.ranks = ranks;
options.checkMemory = memoryCheck;
return options;
} // namespace stepscope::app

std::optional<std::int32_t> parseRankNumber(const QString &text)
{
    const std::optional<std::int64_t> v = toInt64(text.trimmed());
    if (!v || *v < 0 || *v > std::numeric_limits<std::int32_t>::max())
        return std::nullopt;
    return static_cast<std::int32_t>(*v);
}

QStringList toArguments(const std::vector<std::string> &args)
{
    QStringList out;
    for (const std::string &a : args)
        out << QString::fromLocal8Bit(a.data(), static_cast<qsizetype>(a.size()));
    return out;
}

ParseOutcome parseLoadArgs(const QStringList &arguments, bool allowConfig, LoadArgs *out)
{
    const QString command = arguments.value(0);
    QCommandLineParser parser;
    const QCommandLineOption json(QStringLiteral("json"),
        command == QLatin1String("dump") ? QStringLiteral("Print JSON instead of text.")
                                         : QStringLiteral("Print a JSON object instead of text."));
    const QCommandLineOption config(QStringLiteral("config"),
        QStringLiteral("Read the run config from FILE instead of a stepscope.json beside the "
                       "profile."),
        QStringLiteral("FILE"));
    parser.addOption(json);
    if (allowConfig)
        parser.addOption(config);
    parser.addOption(QCommandLineOption(
        QStringLiteral("ranks"), QString::fromUtf8(RanksHelp), QStringLiteral("LIST")));
    parser.addOption(QCommandLineOption(
        QStringLiteral("no-memory-check"), QString::fromUtf8(NoMemoryCheckHelp)));
    parser.addPositionalArgument(
        QStringLiteral("PATH"), QStringLiteral("A profile folder or trace file."));
    const QString usage = allowConfig
        ? command + QStringLiteral(" PATH [--json] [--config FILE] [--ranks LIST]")
        : command + QStringLiteral(" PATH [--json] [--ranks LIST]");
    const QString what = command == QLatin1String("dump")
        ? QStringLiteral("Prints everything the model holds, in a stable order.\n")
        : QStringLiteral("Prints what loaded: format, ranks, steps, breakdown, KPIs, "
                         "diagnostics.\n");
    ParseOutcome outcome;
    if (!parseInto(parser, arguments, usage, what, &outcome))
        return outcome;
    if (const auto problem = onePath(parser, command, &out->path))
        return *problem;
    out->json = parser.isSet(json);
    if (const auto problem = readLoadLimits(parser, command, &out->limits))
        return *problem;
    if (allowConfig && parser.isSet(config)) {
        out->config = parser.value(config).toStdString();
        if (out->config.empty())
            return error(command, QStringLiteral("--config needs a FILE"));
    }
    return outcome;
}

ParseOutcome parseExportArgs(const QStringList &arguments, ExportArgs *out)
{
    const QString command = QStringLiteral("export");
    QCommandLineParser parser;
    const CommandOptions option(parser,
        {{"out", "Write the pictures into DIR (required; created when missing).", "DIR"},
            {"view",
                "timeline, steps, memory, communication, kernels, cluster, training or all (the "
                "default).",
                "VIEW"},
            {"step", "Show profiler step N.", "N"},
            {"range", "Show this range, in µs from the start of the trace.", "START_US:END_US"},
            {"size", "Picture size in pixels, 64x64 to 16384x16384.", "WxH"},
            {"scale", "Device pixel ratio, 0.5 to 4 (2 for a high-density picture).", "S"},
            {"format", "png (the default) or svg.", "FORMAT"},
            {"config", "Read the run config from FILE.", "FILE"}, {"ranks", RanksHelp, "LIST"},
            {"no-memory-check", NoMemoryCheckHelp}});
    parser.addPositionalArgument(
        QStringLiteral("PATH"), QStringLiteral("A profile folder or trace file."));
    ParseOutcome outcome;
    if (!parseInto(parser, arguments, QStringLiteral("export PATH --out DIR [options]"),
            QStringLiteral("Writes pictures of the views without a display.\n"), &outcome))
        return outcome;

    if (const auto problem = onePath(parser, command, &out->path))
        return *problem;
    out->out = option.value("out").toStdString();
    if (out->out.empty())
        return error(command, QStringLiteral("missing --out DIR"));
    if (option.isSet("view")) {
        out->view = option.value("view").toStdString();
        static const QStringList Views {QStringLiteral("timeline"), QStringLiteral("steps"),
            QStringLiteral("memory"), QStringLiteral("communication"), QStringLiteral("kernels"),
            QStringLiteral("cluster"), QStringLiteral("training"), QStringLiteral("all")};
        if (!Views.contains(option.value("view")))
            return error(command,
                QStringLiteral("--view is timeline, steps, memory, communication, kernels, "
                               "cluster, training or all; got %1")
                    .arg(option.value("view")));
    }
    if (option.isSet("step")) {
        const auto n = toInt64(option.value("step"));
        if (!n)
            return error(command,
                QStringLiteral("--step takes a step number, got %1").arg(option.value("step")));
        out->step = *n;
    }
    if (option.isSet("range")) {
        // µs that fit int64 nanoseconds once multiplied by 1000.
        constexpr std::int64_t Limit = std::numeric_limits<std::int64_t>::max() / 1000;
        const QString value = option.value("range");
        static const QRegularExpression Pattern(QStringLiteral("^(-?\\d+):(-?\\d+)$"));
        const QRegularExpressionMatch m = Pattern.match(value);
        if (!m.hasMatch())
            return error(
                command, QStringLiteral("--range takes START_US:END_US, got %1").arg(value));
        const auto a = toInt64(m.captured(1));
        const auto b = toInt64(m.captured(2));
        if (!a || !b || *a > Limit || *a < -Limit || *b > Limit || *b < -Limit)
            return error(command,
                QStringLiteral("--range %1 is out of range (at most %2 µs either way)")
                    .arg(value)
                    .arg(Limit));
        if (*b <= *a)
            return error(
                command, QStringLiteral("--range %1 is empty (END_US <= START_US)").arg(value));
        out->rangeUs = std::make_pair(*a, *b);
    }
    if (option.isSet("size")) {
        const QString value = option.value("size");
        static const QRegularExpression Pattern(QStringLiteral("^(\\d+)x(\\d+)$"));
        const QRegularExpressionMatch m = Pattern.match(value);
        bool okW = false;
        bool okH = false;
        const int w = m.hasMatch() ? m.captured(1).toInt(&okW) : 0;
        const int h = m.hasMatch() ? m.captured(2).toInt(&okH) : 0;
        if (!m.hasMatch())
            return error(command, QStringLiteral("--size takes WxH, got %1").arg(value));
        if (!okW || !okH || w < 64 || h < 64 || w > 16384 || h > 16384)
            return error(command,
                QStringLiteral("--size must be between 64x64 and 16384x16384, got %1").arg(value));
        out->size = std::make_pair(w, h);
    }
    if (option.isSet("scale")) {
        bool ok = false;
        const double s = option.value("scale").toDouble(&ok);
        if (!ok || !(s >= 0.5 && s <= 4))
            return error(command,
                QStringLiteral("--scale must be between 0.5 and 4, got %1")
                    .arg(option.value("scale")));
        out->scale = s;
    }
    if (option.isSet("format")) {
        const QString f = option.value("format");
        if (f != QLatin1String("png") && f != QLatin1String("svg"))
            return error(command, QStringLiteral("--format is png or svg, got %1").arg(f));
        out->format = f.toStdString();
    }
    out->config = option.value("config").toStdString();
    if (const auto problem = readLoadLimits(parser, command, &out->limits))
        return *problem;
    return outcome;
}

ParseOutcome parseCompareArgs(const QStringList &arguments, CompareArgs *out)
{
    const QString command = QStringLiteral("compare");
    QCommandLineParser parser;
    const CommandOptions option(parser,
        {{"report", "Write report.html (self-contained) and report.md with its pictures into DIR.",
             "DIR"},
            {"json", "Print the comparison as JSON on standard output."},
            {"markdown", "Write the verdicts and deltas as Markdown (a CI comment) to FILE.",
                "FILE"},
            {"fail-on", "\"regression\": exit 3 when the after run regressed (README).", "WHAT"},
            {"tolerance", "Loss-curve band in percent (default 2).", "PCT"},
            {"max-step-time", "Step-time increase allowed, percent (default 5).", "PCT"},
            {"max-throughput-drop", "Throughput / MFU drop allowed, percent (default 5).", "PCT"},
            {"max-memory", "Memory increase allowed, percent (default 5).", "PCT"},
            {"rank",
                "Compare rank R of both runs (default: the slowest rank of each run, largest "
                "mean step time).",
                "R"},
            {"before-rank", "Compare rank R of BEFORE (overrides --rank for BEFORE).", "R"},
            {"after-rank", "Compare rank R of AFTER (overrides --rank for AFTER).", "R"},
            {"no-memory-check", NoMemoryCheckHelp}});
    parser.addPositionalArgument(QStringLiteral("BEFORE"), QStringLiteral("The run before."));
    parser.addPositionalArgument(QStringLiteral("AFTER"), QStringLiteral("The run after."));
    ParseOutcome outcome;
    if (!parseInto(parser, arguments,
            QStringLiteral("compare BEFORE AFTER --report DIR [--json] [--rank R | "
                           "--before-rank R --after-rank R]"),
            QStringLiteral(
                "Compares two runs (profiles or training logs); at least one of --report, "
                "--json, --markdown and --fail-on is needed.\n"
                "One rank of each run is compared: its slowest rank unless --rank, "
                "--before-rank or --after-rank picks one; the report and the JSON name "
                "the ranks compared. Two multi-rank runs also get per-rank deltas.\n"),
            &outcome))
        return outcome;
    // Ranks: --rank for both sides, then each side's own option over it.
    const std::pair<const char *, int> rankOptions[] = {
        {"rank", 3}, {"before-rank", 1}, {"after-rank", 2}};
    for (const auto &[rankOption, sides] : rankOptions) {
        if (!option.isSet(rankOption))
            continue;
        const std::optional<std::int32_t> r = parseRankNumber(option.value(rankOption));
        const QString name = QString::fromUtf8(rankOption);
        if (!r)
            return error(command,
                QStringLiteral("--%1 takes a rank number (a whole number >= 0), got \"%2\"")
                    .arg(name, option.value(rankOption)));
        if (sides & 1) {
            out->beforeRank = r;
            out->beforeRankOption = "--" + name.toStdString();
        }
        if (sides & 2) {
            out->afterRank = r;
            out->afterRankOption = "--" + name.toStdString();
        }
    }
    for (const QString &p : parser.positionalArguments())
        out->paths.push_back(p.toStdString());
    out->reportDir = option.value("report").toStdString();
    out->json = option.isSet("json");
    out->memoryCheck = !option.isSet("no-memory-check");
    if (option.isSet("report") && out->reportDir.empty())
        return error(command, QStringLiteral("--report needs a DIR"));
    if (out->paths.size() != 2)
        return error(command,
            QStringLiteral("usage: stepscope compare BEFORE AFTER --report DIR [--json]; got %1")
                .arg(QString::fromStdString(util::countOf(out->paths.size(), "path", "paths"))));
    out->markdown = option.value("markdown").toStdString();
    if (option.isSet("fail-on")) {
        if (option.value("fail-on") != QLatin1String("regression"))
            return error(command,
                QStringLiteral("--fail-on takes \"regression\", got %1")
                    .arg(option.value("fail-on")));
        out->failOnRegression = true;
    }
    const std::pair<const char *, std::optional<double> *> percents[] = {
        {"tolerance", &out->tolerance}, {"max-step-time", &out->maxStepTime},
        {"max-throughput-drop", &out->maxThroughputDrop}, {"max-memory", &out->maxMemory}};
    for (const auto &[percentOption, target] : percents) {
        if (!option.isSet(percentOption))
            continue;
        bool ok = false;
        const double v = option.value(percentOption).toDouble(&ok);
        if (!ok || !(v >= 0))
            return error(command,
                QStringLiteral("--%1 takes a percentage >= 0, got %2")
                    .arg(QString::fromUtf8(percentOption), option.value(percentOption)));
        *target = v / 100;
    }
    if (out->reportDir.empty() && !out->json && out->markdown.empty() && !out->failOnRegression)
        return error(command,
            QStringLiteral("usage: needs --report DIR, --json, --markdown FILE or --fail-on"));
    return outcome;
}

} // namespace stepscope::app

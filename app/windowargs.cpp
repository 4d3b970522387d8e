// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "windowargs.h"

#include "cliargs.h"

#include <QCommandLineParser>

namespace stepscope::app {

namespace {

struct WindowParser
{
    QCommandLineParser parser;
    QCommandLineOption screenshot {QStringLiteral("screenshot"),
        QStringLiteral("Once the profile (or both runs) has loaded, save a PNG of the window "
                       "to FILE and exit."),
        QStringLiteral("FILE")};
    QCommandLineOption compare {QStringLiteral("compare"),
        QStringLiteral("Compare BEFORE AFTER (two paths compare without it, too).")};
    QCommandLineOption rank {QStringLiteral("rank"),
        QStringLiteral("Compare: rank R of both runs (default: each run's slowest rank)."),
        QStringLiteral("R")};
    QCommandLineOption beforeRank {QStringLiteral("before-rank"),
        QStringLiteral("Compare: rank R of BEFORE (over --rank)."), QStringLiteral("R")};
    QCommandLineOption afterRank {QStringLiteral("after-rank"),
        QStringLiteral("Compare: rank R of AFTER (over --rank)."), QStringLiteral("R")};
    QCommandLineOption ranks {QStringLiteral("ranks"),
        QStringLiteral("Open only these ranks of PATH, e.g. 0-7,12 (when the whole profile would "
                       "not fit in memory, the window offers the ranks that do)."),
        QStringLiteral("LIST")};
    QCommandLineOption noMemoryCheck {QStringLiteral("no-memory-check"),
        QStringLiteral("Open PATH even when the memory estimate says it does not fit.")};
    QCommandLineOption help {
        {QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Print this help and exit.")};
    QCommandLineOption version {{QStringLiteral("v"), QStringLiteral("version")},
        QStringLiteral("Print the version and exit.")};

    WindowParser()
    {
        parser.addOption(screenshot);
        parser.addOption(compare);
        parser.addOption(rank);
        parser.addOption(beforeRank);
        parser.addOption(afterRank);
        parser.addOption(ranks);
        parser.addOption(noMemoryCheck);
        parser.addOption(help);
        parser.addOption(version);
        parser.addPositionalArgument(QStringLiteral("PATH"),
            QStringLiteral("A profile folder or trace file; two paths (BEFORE AFTER) compare."),
            QStringLiteral("[PATH [AFTER]]"));
    }
};

} // namespace

WindowArgs parseWindowArgs(const QStringList &arguments)
{
    WindowParser p;
    WindowArgs out;
    if (!p.parser.parse(arguments)) {
        out.action = WindowArgs::Action::Error;
        out.message = p.parser.errorText();
        return out;
    }
    if (p.parser.isSet(p.help)) {
        out.action = WindowArgs::Action::Help;
        return out;
    }
    if (p.parser.isSet(p.version)) {
        out.action = WindowArgs::Action::Version;
        return out;
    }
    out.paths = p.parser.positionalArguments();
    out.screenshot = p.parser.value(p.screenshot);
    if (p.parser.isSet(p.screenshot) && out.screenshot.isEmpty()) {
        out.action = WindowArgs::Action::Error;
        out.message = QStringLiteral("--screenshot needs a FILE");
    } else if (out.paths.size() > 2) {
        out.action = WindowArgs::Action::Error;
        out.message = QStringLiteral("at most two paths (BEFORE AFTER) can be opened, got %1")
                          .arg(out.paths.size());
    } else if (p.parser.isSet(p.compare) && out.paths.size() != 2) {
        out.action = WindowArgs::Action::Error;
        out.message = QStringLiteral("--compare needs two paths, BEFORE AFTER");
    }
    if (out.action == WindowArgs::Action::Error)
        return out;
    out.limits.memoryCheck = !p.parser.isSet(p.noMemoryCheck);
    if (p.parser.isSet(p.ranks)) {
        const auto list = parseRankListOption(p.parser.value(p.ranks));
        if (!list) {
            out.action = WindowArgs::Action::Error;
            out.message = rankListError(p.parser.value(p.ranks));
            return out;
        }
        if (out.paths.size() != 1) {
            out.action = WindowArgs::Action::Error;
            out.message = QStringLiteral("--ranks needs one PATH");
            return out;
        }
        out.limits.ranks = *list;
    }
    for (const auto &[option, sides] :
        {std::pair(&p.rank, 3), std::pair(&p.beforeRank, 1), std::pair(&p.afterRank, 2)}) {
        if (!p.parser.isSet(*option))
            continue;
        const QString name = option->names().front();
        const std::optional<std::int32_t> r = parseRankNumber(p.parser.value(*option));
        if (!r) {
            out.action = WindowArgs::Action::Error;
            out.message = QStringLiteral("--%1 takes a rank number (a whole number >= 0), got "
                                         "\"%2\"")
                              .arg(name, p.parser.value(*option));
            return out;
        }
        if (out.paths.size() != 2) {
            out.action = WindowArgs::Action::Error;
            out.message = QStringLiteral("--%1 needs two paths, BEFORE AFTER").arg(name);
            return out;
        }
        if (sides & 1)
            out.beforeRank = r;
        if (sides & 2)
            out.afterRank = r;
    }
    return out;
}

QString windowOptionsHelp()
{
    WindowParser p;
    // helpText() starts with a "Usage: <program>" line and ends with the positional
    // arguments; keep the option lines only.
    const QString text = p.parser.helpText();
    const qsizetype begin = text.indexOf(QLatin1String("Options:"));
    const qsizetype end = text.indexOf(QLatin1String("Arguments:"));
    return text.mid(begin, end < 0 ? -1 : end - begin).trimmed() + QLatin1Char('\n');
}

} // namespace stepscope::app

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "cli.h"

#include "analysis/analysissummary.h"
#include "analysis/compareoutput.h"
#include "analysis/convergence.h"
#include "analysis/kpis.h"
#include "analysis/steplist.h"
#include "analysis/summarysteps.h"
#include "analysis/trainingsummary.h"
#include "cliargs.h"
#include "import/dump.h"
#include "import/loader.h"
#include "import/summary.h"
#include "ui/compare/comparedata.h"
#include "ui/export/viewexport.h"
#include "ui/loading/profileloader.h"
#include "ui/report/comparereport.h"

#include <nlohmann/json.hpp>

#include <QApplication>
#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>

namespace stepscope::app {

namespace {

/// Prints a parse outcome that is not Run; returns its exit code.
int reportOutcome(const ParseOutcome &outcome)
{
    if (outcome.action == ParseOutcome::Action::Help) {
        std::cout << outcome.text.toStdString();
        return ExitOk;
    }
    std::cerr << outcome.text.toStdString() << '\n';
    return ExitUsage;
}

/// Loads PATH, printing progress to nobody: headless commands stay quiet on stdout. A load
/// the memory budget refuses holds the reason as an error diagnostic, printed with the rest.
std::shared_ptr<const model::Session> load(const std::string &path, const LoadLimits &limits)
{
    util::Progress progress;
    return import::loadPath(path, progress, limits.loadOptions()).session;
}

void printDiagnosticsToStderr(const model::Session &session, const std::string &path)
{
    std::cerr << "stepscope: nothing usable loaded from " << path << '\n';
    const std::string text = model::groupedText(session.report.diagnostics());
    if (!text.empty())
        std::cerr << text;
}

analysis::RunConfig runConfigFor(const LoadArgs &args, model::LoadReport *report)
{
    if (!args.config.empty())
        return analysis::loadRunConfig(args.config, report);
    if (auto found = analysis::findRunConfig(args.path))
        return analysis::loadRunConfig(*found, report);
    return {};
}

/// A --config the user named that gives nothing (missing, not JSON, not an object) stops the
/// command with its message first, rather than a summary whose KPIs say "not set" and exit 0.
/// A stepscope.json found beside the profile stays a diagnostic of the output.
bool namedConfigFailed(const LoadArgs &args, const model::LoadReport &report, const char *command)
{
    if (args.config.empty() || report.count(model::Severity::Error) == 0)
        return false;
    for (const model::Diagnostic &d : report.diagnostics())
        if (d.severity == model::Severity::Error)
            std::cerr << "stepscope " << command << ": --config " << args.config << ": "
                      << d.message << '\n';
    return true;
}

int runSummary(const std::vector<std::string> &args)
{
    LoadArgs parsedArgs;
    const ParseOutcome outcome = parseLoadArgs(toArguments(args), true, &parsedArgs);
    if (outcome.action != ParseOutcome::Action::Run)
        return reportOutcome(outcome);
    const LoadArgs *parsed = &parsedArgs;
    auto session = load(parsed->path, parsed->limits);
    if (!session->hasContent()) {
        printDiagnosticsToStderr(*session, parsed->path);
        if (parsed->json)
            std::cout << import::jsonText(import::importSummaryJson(*session), 2) << '\n';
        return ExitNothingLoaded;
    }
    model::LoadReport configReport;
    const analysis::RunConfig config = runConfigFor(*parsed, &configReport);
    if (namedConfigFailed(*parsed, configReport, "summary"))
        return ExitUsage;
    // The same analysis the GUI's loader builds (no timeline: nothing is drawn).
    const ui::LoadedProfile profile =
        ui::prepareProfile(QString::fromStdString(parsed->path), session, config, false);
    if (parsed->json) {
        // The steps are written one at a time (summarysteps.h): the rest as one document.
        nlohmann::json summary = import::importSummaryJson(*session, false);
        analysis::addAnalysisToSummary(summary, *profile.analysis, false);
        analysis::addTrainingLogToSummary(summary, *session);
        for (const model::Diagnostic &d : configReport.diagnostics())
            summary["diagnostics"].push_back(import::diagnosticJson(d));
        const import::StepSummaries steps(*session);
        analysis::writeSummaryJson(
            std::cout, summary, steps.size(), steps, profile.analysis->breakdowns);
        std::cout << '\n';
    } else {
        // The steps with the figures of "steps" in --json: the profiler's, where it wrote them.
        std::cout << import::importSummaryText(*session, false);
        std::cout << analysis::stepListText(*session, *profile.analysis);
        std::cout << analysis::analysisSummaryText(*session, *profile.analysis);
        std::cout << configReport.toText();
    }
    return ExitOk;
}

int runDump(const std::vector<std::string> &args)
{
    LoadArgs parsedArgs;
    const ParseOutcome outcome = parseLoadArgs(toArguments(args), false, &parsedArgs);
    if (outcome.action != ParseOutcome::Action::Run)
        return reportOutcome(outcome);
    const LoadArgs *parsed = &parsedArgs;
    auto session = load(parsed->path, parsed->limits);
    if (!session->hasContent()) {
        printDiagnosticsToStderr(*session, parsed->path);
        return ExitNothingLoaded;
    }
    if (parsed->json)
        std::cout << import::jsonText(import::dumpJson(*session), 1) << '\n';
    else
        std::cout << import::dumpText(*session);
    return ExitOk;
}

/// `stepscope export` and `stepscope compare` paint with Qt: they need an application
/// object, on the offscreen platform when there is no display.
struct HeadlessApp
{
    HeadlessApp(int argc, char **argv)
    {
        chooseOffscreenWithoutDisplay();
        m_argc = argc > 0 ? 1 : 0;
        m_app = std::make_unique<QApplication>(m_argc, argv);
    }
    int m_argc = 0;
    std::unique_ptr<QApplication> m_app;
};

QString profileNameOf(const std::string &path)
{
    const QFileInfo info(QString::fromStdString(path));
    QString name = info.fileName();
    if (name.isEmpty())
        name = QDir(info.absoluteFilePath()).dirName();
    for (const char *suffix : {".gz", ".json", ".pt.trace"}) {
        if (name.endsWith(QLatin1String(suffix)))
            name.chop(static_cast<int>(std::strlen(suffix)));
    }
    return name;
}

int runExport(int argc, char **argv, const std::vector<std::string> &args)
{
    ExportArgs parsed;
    const ParseOutcome outcome = parseExportArgs(toArguments(args), &parsed);
    if (outcome.action != ParseOutcome::Action::Run)
        return reportOutcome(outcome);
    const std::string &path = parsed.path;
    const std::string &out = parsed.out;
    const std::string &config = parsed.config;
    ui::TimeSelection selection;
    selection.step = parsed.step;
    selection.rangeUs = parsed.rangeUs;
    ui::ImageRequest request;
    if (parsed.size)
        request.size = QSize(parsed.size->first, parsed.size->second);
    request.scale = parsed.scale;
    request.format = parsed.format == "svg" ? ui::ImageFormat::Svg : ui::ImageFormat::Png;
    const auto usage = [&](const std::string &why) {
        std::cerr << "stepscope export: " << why << '\n';
        return ExitUsage;
    };
    std::vector<ui::ExportView> views;
    if (parsed.view == "all") {
        views = {ui::ExportView::Timeline, ui::ExportView::Steps, ui::ExportView::Memory,
            ui::ExportView::Communication, ui::ExportView::Kernels};
    } else if (auto v = ui::exportViewFromName(QString::fromStdString(parsed.view))) {
        views = {*v};
    } else {
        return usage(
            "--view is timeline, steps, memory, communication, kernels, cluster, training or "
            "all; got "
            + parsed.view);
    }

    HeadlessApp app(argc, argv);
    auto session = load(path, parsed.limits);
    if (!session->hasContent()) {
        printDiagnosticsToStderr(*session, path);
        return ExitNothingLoaded;
    }
    model::LoadReport configReport;
    LoadArgs loadArgs;
    loadArgs.path = path;
    loadArgs.config = config;
    const analysis::RunConfig runConfig = runConfigFor(loadArgs, &configReport);
    if (namedConfigFailed(loadArgs, configReport, "export"))
        return ExitUsage;
    // The step is one of the Steps panel's rows: the analysis the pictures show says which.
    std::shared_ptr<const analysis::SessionAnalysis> analysed;
    if (selection.step || parsed.view != "training") {
        analysed = std::make_shared<const analysis::SessionAnalysis>(
            analysis::analyzeSession(*session, runConfig));
        QString why;
        if (!ui::checkSelection(*analysed, selection, &why))
            return usage(why.toStdString() + " (" + path + ")");
    }
    // All: the heat map of a cluster (2 ranks or more), the training panel of logs; training
    // logs alone have nothing for the profile's views ("No profile" pictures).
    if (parsed.view == "all" && session->traces.empty())
        views.clear();
    if (parsed.view == "all" && analysed && analysed->cluster.isCluster())
        views.push_back(ui::ExportView::Cluster);
    if (parsed.view == "all" && !session->trainingLogs.empty())
        views.push_back(ui::ExportView::Training);
    QString error;
    const QStringList written = ui::exportViews(session, views, selection, runConfig, request,
        QString::fromStdString(out), profileNameOf(path), &error, analysed);
    for (const QString &f : written)
        std::cout << f.toStdString() << '\n';
    if (!error.isEmpty()) {
        std::cerr << "stepscope export: " << error.toStdString() << '\n';
        return written.isEmpty() ? ExitNothingLoaded : ExitOk;
    }
    return ExitOk;
}

/// The regression gate's output: verdicts, reasons, the log deltas and, with profiles on both
/// sides (`profiles`), the KPIs for a CI comment.
std::string gateMarkdown(const std::vector<std::string> &paths,
    const std::vector<std::string> &regressions,
    const std::vector<std::pair<std::string, std::string>> &notFailed,
    const analysis::TrainingComparison &training, const analysis::RunComparison *profiles)
{
    std::ostringstream md;
    md << "## StepScope compare\n\n`" << paths[0] << "` → `" << paths[1] << "`\n\n";
    if (profiles) {
        md << "Before: " << analysis::rankCaption(*profiles, false)
           << "; after: " << analysis::rankCaption(*profiles, true) << ".\n\n";
        for (const std::string &note : profiles->stepNotes)
            md << "> " << note << ".\n\n";
    }
    md << (regressions.empty() ? "**No regression.**\n\n" : "**Regression:**\n\n");
    for (const std::string &r : regressions)
        md << "- " << r << '\n';
    if (!regressions.empty())
        md << '\n';
    if (!notFailed.empty()) {
        std::string names;
        for (const auto &[key, title] : notFailed)
            names += (names.empty() ? "" : ", ") + title;
        md << "Marked *regressed* below without failing the gate (within its limits, or not one "
              "of its rules): "
           << names << ".\n\n";
    }
    md << analysis::trainingMarkdown(training);
    if (profiles && !profiles->kpiRows.empty()) {
        md << "### Profile KPIs\n\n";
        if (const std::string scope = analysis::kpiScope(*profiles); !scope.empty())
            md << scope << "\n\n";
        md << analysis::deltaRowsMarkdown(profiles->kpiRows);
    }
    return md.str();
}

/// What a side of a comparison holds, for the message when the two have nothing in common:
/// "a profile (ascend) and no training log", "a training log and no profile".
std::string holds(const model::Session &session)
{
    std::string logs = "no training log";
    if (!session.trainingLogs.empty()) // a loss as compareTraining looks for one, in any run
        logs = analysis::mainTrainingRun(analysis::trainingRuns(session))
            ? "a training log"
            : "a training log without a loss";
    if (session.traces.empty())
        return logs + " and no profile";
    return "a profile (" + session.format + ") and " + logs;
}

int runCompare(int argc, char **argv, const std::vector<std::string> &args)
{
    CompareArgs parsed;
    const ParseOutcome outcome = parseCompareArgs(toArguments(args), &parsed);
    if (outcome.action != ParseOutcome::Action::Run)
        return reportOutcome(outcome);
    const std::vector<std::string> &paths = parsed.paths;
    const std::string &reportDir = parsed.reportDir;
    const bool json = parsed.json;
    // One analysis per run (the loader's prepareProfile), one comparison (compareRuns inside
    // CompareData); JSON and Markdown come from core. Only the report's pictures need Qt GUI.
    std::array<ui::LoadedProfile, 2> profiles;
    for (std::size_t k = 0; k < 2; ++k) {
        LoadLimits limits;
        limits.memoryCheck = parsed.memoryCheck;
        auto session = load(paths[k], limits);
        if (!session->hasContent()) {
            printDiagnosticsToStderr(*session, paths[k]);
            return ExitNothingLoaded;
        }
        model::LoadReport configReport;
        LoadArgs loadArgs;
        loadArgs.path = paths[k];
        const analysis::RunConfig config = runConfigFor(loadArgs, &configReport);
        profiles[k] = ui::prepareProfile(
            QString::fromStdString(paths[k]), std::move(session), config, !reportDir.empty());
    }
    analysis::TrainingThresholds thresholds;
    thresholds.tolerance = parsed.tolerance.value_or(thresholds.tolerance);
    thresholds.stepTime = parsed.maxStepTime.value_or(thresholds.stepTime);
    thresholds.throughput = parsed.maxThroughputDrop.value_or(thresholds.throughput);
    thresholds.memory = parsed.maxMemory.value_or(thresholds.memory);
    // Profiles on both sides: the profile comparison; logs alone: paths and formats only.
    // A rank asked for must be in its run (else the comparison would quietly use another).
    const std::pair<const std::optional<std::int32_t> *, const std::string *> asked[] = {
        {&parsed.beforeRank, &parsed.beforeRankOption},
        {&parsed.afterRank, &parsed.afterRankOption}};
    for (std::size_t k = 0; k < 2; ++k) {
        const auto &[rank, option] = asked[k];
        if (!*rank)
            continue;
        const std::vector<std::int32_t> ranks =
            analysis::comparableRanks(*profiles[k].session, *profiles[k].analysis);
        if (std::binary_search(ranks.begin(), ranks.end(), **rank))
            continue;
        std::string list;
        for (std::int32_t r : ranks)
            list += (list.empty() ? "" : ", ") + std::to_string(r);
        std::cerr << "stepscope compare: " << *option << " " << **rank << ": "
                  << (k == 0 ? "BEFORE" : "AFTER") << " (" << paths[k] << ") has "
                  << (ranks.empty() ? std::string("no ranks") : "ranks " + list) << '\n';
        return ExitUsage;
    }
    const auto data = ui::compare::CompareData::build(
        profiles[0], profiles[1], true, {parsed.beforeRank, parsed.afterRank}, thresholds);
    nlohmann::json compare;
    const bool bothProfiles =
        !profiles[0].session->traces.empty() && !profiles[1].session->traces.empty();
    if (bothProfiles) {
        compare = analysis::compareJson(data->comparison, data->beforeInfo(), data->afterInfo());
    } else {
        for (std::size_t k = 0; k < 2; ++k)
            compare[k == 0 ? "before" : "after"] = {
                {"path", paths[k]}, {"format", profiles[k].session->format}};
    }
    const analysis::TrainingComparison training =
        analysis::compareTraining(*profiles[0].session, *profiles[1].session, thresholds);
    if (!bothProfiles && !training.hasLogs) {
        // A profile against a log (or logs without a loss): the gate would pass on nothing.
        std::cerr << "stepscope compare: nothing to compare: BEFORE (" << paths[0] << ") holds "
                  << holds(*profiles[0].session) << ", AFTER (" << paths[1] << ") holds "
                  << holds(*profiles[1].session)
                  << "; compare two profiles, or two training logs with a loss\n";
        return ExitUsage;
    }
    analysis::addTrainingToCompareJson(compare, training);
    std::vector<std::string> regressions = training.regressions;
    std::set<std::string> failedKeys = training.failedKeys;
    analysis::profileRegressions(compare, thresholds, regressions, &failedKeys);
    compare["regressions"] = regressions;
    const auto notFailed = analysis::regressedNotFailed(
        bothProfiles ? data->comparison.kpiRows : std::vector<analysis::DeltaRow>(), training.rows,
        failedKeys);
    compare["regressed_not_failed"] = nlohmann::json::array();
    for (const auto &[key, title] : notFailed)
        compare["regressed_not_failed"].push_back(key);
    if (json)
        std::cout << import::jsonText(compare, 2) << '\n';
    if (!parsed.markdown.empty()) {
        std::ofstream md(parsed.markdown, std::ios::binary);
        md << gateMarkdown(
            paths, regressions, notFailed, training, bothProfiles ? &data->comparison : nullptr);
        if (!md) {
            std::cerr << "stepscope compare: cannot write " << parsed.markdown << '\n';
            return ExitNothingLoaded;
        }
    }
    if (!reportDir.empty()) {
        HeadlessApp app(argc, argv);
        QString error;
        const ui::Report report = ui::buildCompareReport(data);
        if (!ui::writeReport(report, QString::fromStdString(reportDir), &error)) {
            std::cerr << "stepscope compare: " << error.toStdString() << '\n';
            return ExitNothingLoaded;
        }
        if (!json)
            std::cout << QDir(QString::fromStdString(reportDir))
                             .filePath(QStringLiteral("report.html"))
                             .toStdString()
                      << '\n';
    }
    if (parsed.failOnRegression && !regressions.empty()) {
        for (const std::string &r : regressions)
            std::cerr << "stepscope compare: regression: " << r << '\n';
        return ExitRegression;
    }
    return ExitOk;
}

} // namespace

std::string helpText()
{
    return "Usage:\n"
           "  stepscope [PATH]                   open a profile folder or file in the window\n"
           "  stepscope BEFORE AFTER             compare two runs in the window\n"
           "  stepscope --compare BEFORE AFTER   the same\n"
           "  stepscope --screenshot FILE [PATH...]\n"
           "                                     save a PNG of the window once loaded, exit\n"
           "  stepscope summary PATH [--json] [--config FILE]\n"
           "                                     print what loaded: format, ranks, steps,\n"
           "                                     breakdown, KPIs, diagnostics\n"
           "  stepscope dump PATH [--json]       print everything the model holds\n"
           "  stepscope export PATH --out DIR [--view "
           "timeline|steps|memory|communication|kernels|cluster|training|all]\n"
           "        [--step N] [--range START_US:END_US] [--size WxH] [--scale S]\n"
           "        [--format png|svg]           write pictures without a display\n"
           "  stepscope compare BEFORE AFTER --report DIR [--json]\n"
           "      [--rank R | --before-rank R --after-rank R]  ranks compared (default: slowest)\n"
           "      [--markdown FILE] [--fail-on regression] [--tolerance PCT]\n"
           "      [--max-step-time PCT] [--max-throughput-drop PCT] [--max-memory PCT]\n"
           "                                     exit 3 on a regression (README)\n"
           "                                     write report.html and report.md\n"
           "  stepscope --version | --help\n"
           "\n"
           "The window also takes Qt's own options: -platform NAME (xcb, wayland,\n"
           "offscreen), -style NAME (Fusion), -reverse, -qwindowgeometry WxH+X+Y, ...\n"
           "\n"
           "A run config (stepscope.json beside the profile, or --config FILE) supplies what\n"
           "the profile lacks for KPIs: parameters, global_batch_size, sequence_length,\n"
           "peak_flops, device_count, precision, optimizer (see docs/metrics.md).\n"
           "\n"
           "Exit codes: 0 ok, 1 nothing usable loaded, 2 usage error, 3 a regression\n"
           "(compare --fail-on regression).\n";
}

bool isCommand(const std::string &word)
{
    return word == "summary" || word == "dump" || word == "export" || word == "compare";
}

void chooseOffscreenWithoutDisplay()
{
    if (std::getenv("QT_QPA_PLATFORM"))
        return;
    if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY"))
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
}

int runCommand(int argc, char **argv, const std::vector<std::string> &args)
{
    const std::string &command = args[0];
    if (command == "summary")
        return runSummary(args);
    if (command == "dump")
        return runDump(args);
    if (command == "export")
        return runExport(argc, argv, args);
    return runCompare(argc, argv, args);
}

} // namespace stepscope::app

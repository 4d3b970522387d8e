// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "comparedata.h"

#include "analysis/trainingsummary.h"
#include "import/losslog/losslog.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <tuple>

namespace stepscope::ui::compare {

namespace {

void fillSide(CompareSide &side, LoadedProfile profile, bool findLogs)
{
    side.profile = std::move(profile);
    if (!side.profile.session)
        return;
    if (!side.profile.analysis)
        side.profile.analysis = std::make_shared<const analysis::SessionAnalysis>(
            analysis::analyzeSession(*side.profile.session, {}));
    side.analysis = side.profile.analysis;
    if (!findLogs)
        return;
    // The logs the load read (the log file opened, the logs beside a profile), as
    // `stepscope compare` compares them; opening one of two logs of a folder compared the
    // folder's first log on both sides. Else those a little deeper beside the profile.
    side.logs = side.profile.session->trainingLogs;
    if (side.logs.empty()) {
        try {
            std::filesystem::path dir(side.profile.path.toStdString());
            if (!std::filesystem::is_directory(dir))
                dir = dir.parent_path();
            for (const auto &file : import::losslog::findTrainingLogs(dir, 2)) {
                if (auto log = readLog(QString::fromStdString(file.string())))
                    side.logs.push_back(std::move(log));
            }
        } catch (const std::exception &) {
            // A folder we cannot list simply has no logs; the Loss tab offers "Add log...".
        }
    }
    side.mainLog = mainLogRun(side.logs);
}

int traceIndexOf(const CompareSide &side, std::int32_t rank)
{
    if (!side.profile.session)
        return -1;
    const auto &traces = side.profile.session->traces;
    for (std::size_t i = 0; i < traces.size(); ++i)
        if (traces[i]->rank == rank)
            return static_cast<int>(i);
    return -1;
}

// The compared ranks' steps and traces, after `comparison` was (re)computed.
void fillRanks(CompareData &data)
{
    data.before.breakdowns = data.comparison.beforeSteps;
    data.after.breakdowns = data.comparison.afterSteps;
    data.before.traceIndex = traceIndexOf(data.before, data.comparison.beforeRank);
    data.after.traceIndex = traceIndexOf(data.after, data.comparison.afterRank);
}

analysis::CompareRunInfo infoOf(const CompareSide &side)
{
    analysis::CompareRunInfo info;
    info.name = side.name().toStdString();
    info.path = side.profile.path.toStdString();
    if (side.profile.session)
        info.format = side.profile.session->format;
    return info;
}

} // namespace

QString CompareSide::name() const
{
    const QFileInfo info(profile.path);
    return info.fileName().isEmpty() ? profile.path : info.fileName();
}

const std::vector<timeline::StepLaneSegment> &CompareSide::stepSegments() const
{
    static const std::vector<timeline::StepLaneSegment> none;
    if (!profile.timeline || traceIndex < 0
        || traceIndex >= static_cast<int>(profile.session->traces.size()))
        return none;
    return profile.timeline->stepSegments(traceIndex);
}

std::pair<std::int64_t, std::int64_t> CompareSide::stepWindow(std::size_t index) const
{
    if (index >= breakdowns.size())
        return {0, 0};
    const std::int64_t offset =
        profile.timeline && traceIndex >= 0 ? profile.timeline->offsetNs(traceIndex) : 0;
    return {breakdowns[index].startNs + offset, breakdowns[index].endNs + offset};
}

std::shared_ptr<const CompareData> CompareData::build(LoadedProfile before, LoadedProfile after,
    bool findLogs, CompareRanks choice, const analysis::TrainingThresholds &thresholds)
{
    auto data = std::make_shared<CompareData>();
    data->thresholds = thresholds;
    fillSide(data->before, std::move(before), findLogs);
    fillSide(data->after, std::move(after), findLogs);
    data->ranks = choice;
    data->comparison = data->compare(std::nullopt, data->before.mainLog, data->after.mainLog);
    fillRanks(*data);
    return data;
}

bool CompareData::logsOnly() const
{
    const auto noTrace = [](const CompareSide &side) {
        return !side.profile.session || side.profile.session->traces.empty();
    };
    return noTrace(before) && noTrace(after);
}

std::shared_ptr<const CompareData> CompareData::withRanks(CompareRanks choice) const
{
    auto data = std::make_shared<CompareData>(*this);
    data->ranks = choice;
    data->comparison = data->compare(std::nullopt, data->before.mainLog, data->after.mainLog);
    fillRanks(*data);
    return data;
}

analysis::RunComparison CompareData::compare(std::optional<analysis::ManualAnchor> anchor,
    const LogRun &beforeLog, const LogRun &afterLog) const
{
    analysis::CompareOptions options;
    options.anchor = anchor;
    options.beforeRank = ranks.before;
    options.afterRank = ranks.after;
    return analysis::compareRuns(
        {before.profile.session.get(), before.analysis.get(), beforeLog.log.get(), beforeLog.run},
        {after.profile.session.get(), after.analysis.get(), afterLog.log.get(), afterLog.run},
        options);
}

analysis::StepPairing CompareData::pairing(std::optional<analysis::ManualAnchor> anchor) const
{
    if (!anchor)
        return comparison.pairing;
    return analysis::pairSteps(before.breakdowns, after.breakdowns, anchor);
}

analysis::CompareRunInfo CompareData::beforeInfo() const
{
    return infoOf(before);
}

analysis::CompareRunInfo CompareData::afterInfo() const
{
    return infoOf(after);
}

AlignedPair alignedPair(const CompareData &data, const analysis::StepPairing &pairing,
    const CompareSelection &selection)
{
    AlignedPair out;
    if (pairing.pairs.empty())
        return out;
    out.valid = true;
    out.pair = pairing.pairs[selectedPairIndex(pairing, selection)];
    std::tie(out.beforeStartNs, out.beforeEndNs) = data.before.stepWindow(out.pair.beforeIndex);
    std::tie(out.afterStartNs, out.afterEndNs) = data.after.stepWindow(out.pair.afterIndex);
    return out;
}

std::size_t selectedPairIndex(
    const analysis::StepPairing &pairing, const CompareSelection &selection)
{
    if (pairing.pairs.empty())
        return 0;
    return std::min(selection.pairIndex.value_or(defaultPairIndex(pairing, selection.anchor)),
        pairing.pairs.size() - 1);
}

std::size_t defaultPairIndex(
    const analysis::StepPairing &pairing, std::optional<analysis::ManualAnchor> anchor)
{
    if (anchor && !pairing.anchorNotFound)
        return pairIndexOf(pairing, anchor->beforeStep);
    return pairing.pairs.size() >= 3 ? 1 : 0;
}

std::size_t pairIndexOf(const analysis::StepPairing &pairing, std::int64_t beforeStep)
{
    for (std::size_t i = 0; i < pairing.pairs.size(); ++i)
        if (pairing.pairs[i].beforeStep == beforeStep)
            return i;
    return 0;
}

LogRun mainLogRun(const std::vector<std::shared_ptr<const model::TrainingLog>> &logs)
{
    const std::vector<analysis::TrainingRun> runs = analysis::trainingRuns(logs);
    if (const analysis::TrainingRun *main = analysis::mainTrainingRun(runs))
        for (const auto &log : logs)
            if (log.get() == main->log)
                return {log, main->run};
    return {logs.empty() ? nullptr : logs.front(), 0};
}

LossOverlay makeLossOverlay(
    const LogRun &before, const LogRun &after, const analysis::TrainingThresholds &thresholds)
{
    LossOverlay o;
    o.beforeLog = before.log;
    o.afterLog = after.log;
    // The file, and which of its runs when it holds several.
    const auto source = [](const LogRun &side) {
        QString text = QString::fromStdString(side.log->source);
        if (side.log->runs.size() > 1 && side.run < side.log->runs.size())
            text += QStringLiteral(", ") + QString::fromStdString(side.log->runs[side.run].label);
        return text;
    };
    if (o.beforeLog) {
        o.beforeSource = source(before);
        o.beforeSeries = o.beforeLog->primaryLoss(before.run);
    }
    if (o.afterLog) {
        o.afterSource = source(after);
        o.afterSeries = o.afterLog->primaryLoss(after.run);
    }
    analysis::RunComparison logs;
    analysis::compareTrainingLogs(logs, o.beforeLog.get(), before.run, o.afterLog.get(), after.run);
    o.comparison = std::move(logs.loss);
    o.crossCheck = std::move(logs.crossCheck);
    if (o.beforeLog && o.afterLog)
        o.convergence = analysis::compareConvergence(
            *o.beforeLog, before.run, *o.afterLog, after.run, thresholds);
    return o;
}

QStringList hostOnlyProcessKeys(const timeline::TimelineModel &model)
{
    QStringList out;
    for (const timeline::Lane &lane : model.lanes()) {
        if (lane.kind != timeline::LaneKind::Process)
            continue;
        bool device = false;
        for (const timeline::Lane &child : model.lanes()) {
            if (child.kind == timeline::LaneKind::Track && child.parentKey == lane.key
                && model.trace(child.traceIndex)
                        .tracks[static_cast<std::size_t>(child.trackIndex)]
                        .info()
                        .kind
                    == model::TrackKind::DeviceStream) {
                device = true;
                break;
            }
        }
        if (!device)
            out << lane.key;
    }
    return out;
}

std::shared_ptr<const model::TrainingLog> readLog(const QString &path)
{
    try {
        model::LoadReport report;
        auto log = std::make_shared<model::TrainingLog>(
            import::losslog::readTrainingLog(std::filesystem::path(path.toStdString()), report));
        if (log->empty())
            return nullptr;
        if (log->source.empty())
            log->source = path.toStdString();
        return log;
    } catch (const std::exception &) {
        return nullptr; // readTrainingLog never throws; cancellation cannot happen here
    }
}

} // namespace stepscope::ui::compare

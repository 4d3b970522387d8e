// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "analysissummary.h"

#include "rankpasses.h"
#include "steps.h"
#include "summarysteps.h"
#include "trainingsummary.h"
#include "units.h"
#include "util/parallel.h"
#include "util/saturate.h"
#include "warmup.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <map>
#include <sstream>

namespace stepscope::analysis {

namespace {

/// `s` right-aligned in `width` columns: UTF-8 characters, not bytes, so "153 µs" lines up
/// with "5.99 ms".
/// A step id as the Steps panel shows it: "–" for a profiler row without one (mstt's
/// cluster_step_trace_time.csv leaves the Step column empty; imported as -1).
std::string stepText(std::int64_t step)
{
    return step < 0 ? std::string("–") : std::to_string(step);
}

std::string pad(std::string s, std::size_t width)
{
    const auto columns = static_cast<std::size_t>(std::count_if(
        s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
    if (columns < width)
        s.insert(0, width - columns, ' ');
    return s;
}

std::string kpiText(const Kpi &k)
{
    if (!k.value)
        return "—  (" + k.missingReason + ")";
    const double v = *k.value;
    if (k.unit == "us")
        return formatDuration(util::saturatingInt64(v * 1000.0));
    if (k.unit == "fraction")
        return formatShare(v);
    if (k.unit == "bytes")
        return formatBytes(util::saturatingInt64(v));
    return formatSignificant(v) + " " + k.unit;
}

} // namespace

SessionAnalysis analyzeSession(
    const model::Session &session, const RunConfig &config, const util::CancelToken *cancel)
{
    const auto check = [cancel] {
        if (cancel != nullptr && cancel->isCancelled())
            throw util::Cancelled {};
    };
    SessionAnalysis a;
    a.config = config;
    check();
    // Each rank's own passes on a few threads, gathered in rank order: the same analysis
    // whatever the thread count. Meanwhile the collective table reads the communication
    // events' args back from the files: both only read the session.
    std::vector<RankPasses> passes;
    util::runBoth(
        true, [&] { passes = runRankPasses(session, config, cancel); },
        [&] { a.collectives = collectiveTable(session, cancel); });
    for (RankPasses &r : passes) {
        a.breakdowns.insert(a.breakdowns.end(), std::make_move_iterator(r.breakdowns.begin()),
            std::make_move_iterator(r.breakdowns.end()));
        a.lanes.push_back(std::move(r.lanes));
        if (r.memory)
            a.memory.push_back(std::move(*r.memory));
        if (r.kernels)
            a.kernels.push_back(std::move(*r.kernels));
        a.notes.merge(r.notes);
    }
    check();
    markWarmUpSteps(a.breakdowns, a.notes);
    noteMemoryNotInCategories(a.memory, a.notes);
    a.estimate = estimateModelMemory(config);
    a.kpis = computeKpis(session, config, a.breakdowns);
    a.bottlenecks = rankBottlenecks(a.breakdowns, &a.memory, &a.kpis);
    check();
    a.ranks = computeRankTable(session, a.breakdowns);
    check();
    a.matrix = communicationMatrix(session);
    check();
    a.cluster = analyzeCluster(session, a.breakdowns);
    return a;
}

SessionAnalysis withRunConfig(
    const SessionAnalysis &previous, const model::Session &session, const RunConfig &config)
{
    SessionAnalysis a = previous;
    a.config = config;
    for (MemorySummary &m : a.memory)
        applyRunConfig(m, config);
    a.estimate = estimateModelMemory(config);
    a.kpis = computeKpis(session, config, a.breakdowns);
    a.bottlenecks = rankBottlenecks(a.breakdowns, &a.memory, &a.kpis);
    return a;
}

const KernelSummary *kernelsOfRank(const SessionAnalysis &analysis, std::int32_t rank)
{
    for (const KernelSummary &k : analysis.kernels) {
        if (k.rank == rank)
            return &k;
    }
    return nullptr;
}

std::vector<StepBreakdown> breakdownsOfRank(const SessionAnalysis &analysis, std::int32_t rank)
{
    std::vector<StepBreakdown> out;
    for (const StepBreakdown &b : analysis.breakdowns) {
        if (b.rank == rank)
            out.push_back(b);
    }
    return out;
}

const MemorySummary *memoryOfRank(const SessionAnalysis &analysis, std::int32_t rank)
{
    for (const MemorySummary &m : analysis.memory) {
        if (m.rank == rank)
            return &m;
    }
    return nullptr;
}

void addAnalysisToSummary(
    nlohmann::json &summary, const model::Session &session, const RunConfig &config)
{
    addAnalysisToSummary(summary, analyzeSession(session, config));
    addTrainingLogToSummary(summary, session);
}

void addAnalysisToSummary(nlohmann::json &summary, const SessionAnalysis &a, bool withSteps)
{
    if (!summary.is_object())
        summary = nlohmann::json::object();
    if (withSteps)
        mergeSteps(summary, a.breakdowns);

    nlohmann::json kpis = nlohmann::json::object();
    nlohmann::json missing = nlohmann::json::object();
    for (const auto &k : a.kpis.items) {
        kpis[k.key] = k.value ? nlohmann::json(*k.value) : nlohmann::json(nullptr);
        if (!k.value)
            missing[k.key] = k.missingReason;
    }
    kpis["missing"] = missing;
    if (!a.kpis.device.empty())
        kpis["device"] = a.kpis.device;
    if (a.kpis.peakFlopsPerDevice) {
        kpis["peak_flops_per_device"] = *a.kpis.peakFlopsPerDevice;
        kpis["peak_source"] = a.kpis.peakSource;
    }
    if (a.kpis.deviceCount)
        kpis["device_count"] = *a.kpis.deviceCount;
    summary["kpis"] = kpis;

    nlohmann::json bottlenecks = nlohmann::json::array();
    for (const auto &b : a.bottlenecks)
        bottlenecks.push_back({{"kind", bottleneckKindKey(b.kind)}, {"share", b.share},
            {"evidence", b.evidence}, {"rank", b.rank}, {"step", b.step}});
    summary["bottlenecks"] = bottlenecks;

    nlohmann::json memory = nlohmann::json::array();
    for (const auto &m : a.memory) {
        nlohmann::json j;
        j["rank"] = m.rank;
        j["peak_allocated_bytes"] =
            m.peakAllocatedBytes ? nlohmann::json(*m.peakAllocatedBytes) : nlohmann::json(nullptr);
        j["peak_reserved_bytes"] =
            m.peakReservedBytes ? nlohmann::json(*m.peakReservedBytes) : nlohmann::json(nullptr);
        if (m.hasGroups) {
            nlohmann::json g = nlohmann::json::object();
            for (int i = 0; i < MemoryGroupCount; ++i)
                g[std::string(memoryGroupKey(static_cast<MemoryGroup>(i)))] =
                    m.byGroupAtPeak[static_cast<std::size_t>(i)];
            j["by_category_at_peak"] = g;
            j["categories_inferred"] = m.groupsInferred;
            if (m.notInCategoriesBytes)
                j["not_in_categories_bytes"] = *m.notInCategoriesBytes;
        }
        if (m.estimate) {
            j["estimate"] = {{"bytes_per_parameter", m.estimate->bytesPerParameter},
                {"weights", m.estimate->weightsBytes},
                {"master_weights", m.estimate->masterWeightsBytes},
                {"gradients", m.estimate->gradientsBytes},
                {"optimizer_state", m.estimate->optimizerStateBytes},
                {"total", m.estimate->totalBytes}, {"rule", m.estimate->rule}};
            if (m.nonModelStateBytes)
                j["non_model_state_bytes"] = *m.nonModelStateBytes;
        }
        memory.push_back(j);
    }
    // The shape: by_category_at_peak / estimate of the rank with the highest peak at
    // the top, every rank in per_rank.
    nlohmann::json memoryObject = nlohmann::json::object();
    std::size_t top = memory.size();
    std::int64_t topPeak = -1;
    for (std::size_t i = 0; i < a.memory.size(); ++i) {
        const auto &m = a.memory[i];
        std::int64_t peak = m.peakAllocatedBytes.value_or(0);
        if (m.hasGroups) {
            std::int64_t sum = 0;
            for (auto b : m.byGroupAtPeak)
                sum += b;
            peak = std::max(peak, sum);
        }
        if (peak > topPeak) {
            topPeak = peak;
            top = i;
        }
    }
    if (top < memory.size()) {
        for (auto it = memory[top].begin(); it != memory[top].end(); ++it)
            memoryObject[it.key()] = it.value();
    }
    if (!memoryObject.contains("estimate") && a.estimate)
        memoryObject["estimate"] = {{"bytes_per_parameter", a.estimate->bytesPerParameter},
            {"weights", a.estimate->weightsBytes},
            {"master_weights", a.estimate->masterWeightsBytes},
            {"gradients", a.estimate->gradientsBytes},
            {"optimizer_state", a.estimate->optimizerStateBytes}, {"total", a.estimate->totalBytes},
            {"rule", a.estimate->rule}};
    memoryObject["per_rank"] = memory;
    summary["memory"] = memoryObject;

    nlohmann::json ranks;
    nlohmann::json rows = nlohmann::json::array();
    for (const auto &r : a.ranks.ranks) {
        const ClusterRankRow *row = a.cluster.row(r.rank);
        const std::int64_t stragglerSteps = row ? row->stragglerSteps : 0;
        rows.push_back({{"rank", r.rank}, {"steps", r.stepCount},
            {"step_mean_us", nsToUs(r.stepMeanNs)}, {"step_median_us", nsToUs(r.stepMedianNs)},
            {"step_max_us", nsToUs(r.stepMaxNs)}, {"compute_mean_us", nsToUs(r.computeMeanNs)},
            {"comm_exposed_mean_us", nsToUs(r.commExposedMeanNs)},
            {"free_mean_us", nsToUs(r.freeMeanNs)}, {"bubble_mean_us", nsToUs(r.bubbleMeanNs)},
            {"clock_offset_us",
                r.offsetKnown ? nlohmann::json(nsToUs(r.clockOffsetNs)) : nlohmann::json(nullptr)},
            {"matched_collectives", r.matchedCollectives},
            {"clock_spread_us", nsToUs(r.clockSpreadNs)}, {"straggler", stragglerSteps > 0},
            {"straggler_steps", stragglerSteps}});
    }
    ranks["per_rank"] = rows;
    ranks["slowest_rank"] =
        a.ranks.slowestRank ? nlohmann::json(*a.ranks.slowestRank) : nlohmann::json(nullptr);
    ranks["slowest_margin_us"] = nsToUs(a.ranks.slowestMarginNs);
    ranks["slowest_margin_fraction"] = a.ranks.slowestMarginFraction;
    summary["ranks"] = ranks;

    // Each rank's device kernels by total time, the Kernels panel's first rows.
    constexpr std::size_t KernelsInSummary = 20;
    nlohmann::json kernels = nlohmann::json::array();
    for (const KernelSummary &k : a.kernels) {
        nlohmann::json longest = nlohmann::json::array();
        for (std::size_t i = 0; i < k.top.size() && i < KernelsInSummary; ++i) {
            const auto &[name, s] = k.top[i];
            longest.push_back({{"name", name}, {"category", model::categoryName(s.category)},
                {"count", s.count}, {"total_us", nsToUs(s.totalNs)}, {"mean_us", s.meanNs / 1e3},
                {"median_us", s.medianNs / 1e3}, {"min_us", nsToUs(s.minNs)},
                {"max_us", nsToUs(s.maxNs)}, {"stddev_us", s.stddevNs / 1e3}, {"share", s.share}});
        }
        nlohmann::json entry = {{"rank", k.rank}, {"total_us", nsToUs(k.totalNs)},
            {"count", k.count}, {"names", k.nameCount}, {"top", longest}};
        if (!k.opTypes.empty()) {
            nlohmann::json types = nlohmann::json::array();
            for (const model::OpStatistic &o : k.opTypes)
                types.push_back({{"type", o.name}, {"core_type", o.coreType}, {"count", o.count},
                    {"total_us", o.totalUs}, {"min_us", o.minUs}, {"avg_us", o.avgUs},
                    {"max_us", o.maxUs}});
            entry["op_types"] = types;
        }
        kernels.push_back(entry);
    }
    summary["kernels"] = kernels;

    nlohmann::json comm;
    nlohmann::json table = nlohmann::json::array();
    for (const auto &c : a.collectives) {
        nlohmann::json j = {{"name", c.name}, {"group", c.group}, {"p2p", c.p2p},
            {"count", c.count}, {"total_us", c.totalUs}, {"mean_us", c.meanUs},
            {"source", c.source}};
        j["bytes"] = c.bytes ? nlohmann::json(*c.bytes) : nlohmann::json(nullptr);
        j["bandwidth_gbps"] =
            c.bandwidthGBps ? nlohmann::json(*c.bandwidthGBps) : nlohmann::json(nullptr);
        if (c.busBandwidthGBps)
            j["bus_bandwidth_gbps"] = *c.busBandwidthGBps;
        if (c.waitUs)
            j["wait_us"] = *c.waitUs;
        if (c.transitUs)
            j["transit_us"] = *c.transitUs;
        table.push_back(j);
    }
    comm["collectives"] = table;
    nlohmann::json cells = nlohmann::json::array();
    for (const auto &c : a.matrix.cells)
        cells.push_back({{"src", c.srcRank}, {"dst", c.dstRank}, {"transport", c.transport},
            {"size_mb", c.sizeMb}, {"time_ms", c.timeMs}, {"ops", c.ops},
            {"bandwidth_gbps",
                c.bandwidthGBps ? nlohmann::json(*c.bandwidthGBps) : nlohmann::json(nullptr)}});
    comm["matrix"] = {{"source", a.matrix.source}, {"ranks", a.matrix.ranks}, {"cells", cells}};
    summary["communication"] = comm;
    summary["cluster"] = clusterJson(a.cluster);

    nlohmann::json notes = nlohmann::json::array();
    for (const auto &d : a.notes.diagnostics())
        notes.push_back({{"severity", model::severityName(d.severity)}, {"where", d.file},
            {"message", d.message}});
    summary["analysis_notes"] = notes;
}

std::string analysisSummaryText(const model::Session &session, const RunConfig &config)
{
    return analysisSummaryText(session, analyzeSession(session, config));
}

std::string analysisSummaryText(const model::Session &session, const SessionAnalysis &analysis)
{
    // Training logs alone: no steps, KPIs or bottlenecks to print, only the logs' sections.
    if (session.traces.empty() && !session.trainingLogs.empty())
        return trainingLogText(session);
    return analysisSummaryText(analysis) + trainingLogText(session);
}

std::string analysisSummaryText(const SessionAnalysis &a)
{
    std::ostringstream out;
    out << "Steps (docs/metrics.md; free = host wait + data loading + launch gaps + other idle)\n";
    out << pad("rank", 5) << pad("step", 7) << pad("duration", 10) << pad("compute", 10)
        << pad("comm exp", 10) << pad("comm ovl", 10) << pad("free", 10) << pad("host wait", 10)
        << pad("data", 10) << pad("launch", 10) << pad("other", 10) << pad("bubble", 10)
        << pad("preparing", 10) << '\n';
    for (const auto &b : a.breakdowns) {
        // A step from the table alone: its free time is the table's, its parts unknown.
        const auto part = [&b](std::int64_t ns) {
            return pad(b.freePartsKnown() ? formatDuration(ns) : std::string("—"), 10);
        };
        out << pad(std::to_string(b.rank), 5) << pad(stepText(b.step), 7)
            << pad(formatDuration(b.durationNs()), 10) << pad(formatDuration(b.computeNs), 10)
            << pad(formatDuration(b.commExposedNs), 10)
            << pad(formatDuration(b.commOverlappedNs), 10) << pad(formatDuration(b.freeNs), 10)
            << part(b.hostWaitNs) << part(b.dataLoadingNs) << part(b.launchGapNs)
            << part(b.otherIdleNs) << pad(formatDuration(b.bubbleNs), 10)
            << pad(formatDuration(b.preparingNs), 10) << '\n';
    }
    for (const auto &b : a.breakdowns) {
        if (!b.reference)
            continue;
        out << "\nReference, rank " << b.rank << " step " << b.step << " (" << b.reference->source
            << (b.reference->withinTolerance ? ", all within 1 %" : ", NOT all within 1 %")
            << ")\n";
        for (const auto &c : b.reference->categories) {
            char line[256];
            std::snprintf(line, sizeof line,
                "  %-52s profiler %12.3f us  ours %12.3f us  diff %+10.3f us (%s)\n",
                c.column.c_str(), c.referenceUs, c.oursUs, c.differenceUs,
                formatShare(c.relativeDifference).c_str());
            out << line;
        }
    }
    bool tbHeader = false;
    for (const auto &b : a.breakdowns) {
        if (!b.tbBreakdown)
            continue;
        if (!tbHeader) {
            out << "\nTensorBoard plugin step breakdown (its own step boundaries)\n"
                << pad("rank", 5) << pad("step", 7) << pad("duration", 10) << pad("kernel", 10)
                << pad("memcpy", 10) << pad("memset", 10) << pad("comm", 10) << pad("runtime", 10)
                << pad("dataload", 10) << pad("cpu exec", 10) << pad("other", 10) << '\n';
            tbHeader = true;
        }
        const auto &t = *b.tbBreakdown;
        out << pad(std::to_string(b.rank), 5) << pad(std::to_string(t.step), 7)
            << pad(formatDuration(t.endNs - t.startNs), 10) << pad(formatDuration(t.kernelNs), 10)
            << pad(formatDuration(t.memcpyNs), 10) << pad(formatDuration(t.memsetNs), 10)
            << pad(formatDuration(t.communicationNs), 10) << pad(formatDuration(t.runtimeNs), 10)
            << pad(formatDuration(t.dataLoaderNs), 10) << pad(formatDuration(t.cpuExecNs), 10)
            << pad(formatDuration(t.otherNs), 10) << '\n';
    }
    out << "\nKPIs\n";
    for (const auto &k : a.kpis.items)
        out << "  " << k.key << ": " << kpiText(k) << '\n';
    if (a.kpis.peakFlopsPerDevice)
        out << "  peak per device: " << formatSignificant(*a.kpis.peakFlopsPerDevice / 1e12)
            << " TFLOP/s (" << a.kpis.peakSource << ")\n";
    out << "\nBottlenecks (largest first)\n";
    if (a.bottlenecks.empty())
        out << "  none found\n";
    int n = 1;
    for (const auto &b : a.bottlenecks)
        out << "  " << n++ << ". " << bottleneckKindName(b.kind) << " " << formatShare(b.share)
            << " — " << b.evidence << '\n';
    if (!a.memory.empty()) {
        out << "\nMemory\n";
        for (const auto &m : a.memory) {
            out << "  rank " << m.rank << ": peak allocated "
                << (m.peakAllocatedBytes ? formatBytes(*m.peakAllocatedBytes) : std::string("—"))
                << ", reserved "
                << (m.peakReservedBytes ? formatBytes(*m.peakReservedBytes) : std::string("—"))
                << '\n';
            if (m.hasGroups) {
                out << "    at peak" << (m.groupsInferred ? " (categories inferred)" : "") << ":";
                for (int i = 0; i < MemoryGroupCount; ++i)
                    out << ' ' << memoryGroupKey(static_cast<MemoryGroup>(i)) << ' '
                        << formatBytes(m.byGroupAtPeak[static_cast<std::size_t>(i)]);
                if (m.notInCategoriesBytes)
                    out << "; not_in_categories " << formatBytes(*m.notInCategoriesBytes);
                out << '\n';
            }
            if (m.estimate)
                out << "    estimate from the run config: " << formatBytes(m.estimate->totalBytes)
                    << " model state (" << m.estimate->rule << ")\n";
        }
    }
    if (a.memory.empty() && a.estimate)
        out << "\nMemory\n  no memory data; estimate from the run config: "
            << formatBytes(a.estimate->totalBytes) << " model state (" << a.estimate->rule << ")\n";
    if (!a.kernels.empty()) {
        // The first rank's: a cluster's every rank is in `summary --json` and the panel.
        const KernelSummary &k = a.kernels.front();
        out << "\nKernels, rank " << k.rank << " (" << k.nameCount << " names, " << k.count
            << " kernels, " << formatDuration(k.totalNs) << " in all; "
            << (k.nameCount > 10 ? "the 10 largest in total" : "largest total first") << ")\n"
            << "  " << pad("total", 10) << pad("share", 8) << pad("count", 9) << pad("median", 10)
            << pad("longest", 10) << "  name\n";
        for (std::size_t i = 0; i < k.top.size() && i < 10; ++i) {
            const auto &[name, s] = k.top[i];
            out << "  " << pad(formatDuration(s.totalNs), 10) << pad(formatShare(s.share), 8)
                << pad(std::to_string(s.count), 9)
                << pad(formatDuration(std::llround(s.medianNs)), 10)
                << pad(formatDuration(s.maxNs), 10) << "  "
                << (name.size() > 90 ? name.substr(0, 87) + "..." : name) << '\n';
        }
    }
    if (a.ranks.ranks.size() > 1) {
        out << "\nRanks\n"
            << pad("rank", 5) << pad("steps", 7) << pad("mean", 10) << pad("median", 10)
            << pad("max", 10) << pad("offset", 12) << "  straggler steps\n";
        for (const auto &r : a.ranks.ranks) {
            // The cluster's rule (per step, within the rank's pipeline stage).
            const ClusterRankRow *row = a.cluster.row(r.rank);
            const std::int64_t stragglerSteps = row ? row->stragglerSteps : 0;
            out << pad(std::to_string(r.rank), 5) << pad(std::to_string(r.stepCount), 7)
                << pad(formatDuration(r.stepMeanNs), 10) << pad(formatDuration(r.stepMedianNs), 10)
                << pad(formatDuration(r.stepMaxNs), 10)
                << pad(r.offsetKnown ? formatDuration(r.clockOffsetNs) : std::string("—"), 12)
                << (stragglerSteps > 0 ? "  " + std::to_string(stragglerSteps) : std::string())
                << '\n';
        }
        if (a.ranks.slowestRank)
            out << "  slowest rank " << *a.ranks.slowestRank << ", "
                << formatDuration(a.ranks.slowestMarginNs) << " ("
                << formatShare(a.ranks.slowestMarginFraction) << ") above the median rank\n";
    }
    if (a.cluster.missingRankCount > 0) // a sample of a larger job
        out << (a.ranks.ranks.size() > 1 ? "" : "\nRanks\n") << "  world size "
            << a.cluster.worldSize << ": " << a.cluster.missingRankCount
            << (a.cluster.missingRankCount == 1 ? " rank" : " ranks") << " not in the files ("
            << rankRunsText(a.cluster.missingRanks) << ")\n";
    if (!a.collectives.empty()) {
        out << "\nCommunication (" << a.collectives.front().source << ")\n";
        for (const auto &c : a.collectives) {
            out << "  " << c.name << (c.p2p ? " (p2p)" : "")
                << (c.group.empty() ? "" : " [" + c.group + "]") << ": " << c.count << " × mean "
                << formatDuration(util::saturatingInt64(c.meanUs * 1000)) << ", total "
                << formatDuration(util::saturatingInt64(c.totalUs * 1000));
            if (c.bytes)
                out << ", " << formatBytes(util::saturatingInt64(*c.bytes));
            if (c.bandwidthGBps)
                out << ", " << formatSignificant(*c.bandwidthGBps) << " GB/s";
            if (c.busBandwidthGBps)
                out << " (bus " << formatSignificant(*c.busBandwidthGBps) << " GB/s)";
            if (c.waitUs && c.transitUs)
                out << ", wait " << formatDuration(util::saturatingInt64(*c.waitUs * 1000))
                    << " / transit " << formatDuration(util::saturatingInt64(*c.transitUs * 1000));
            out << '\n';
        }
    }
    if (!a.matrix.cells.empty()) {
        out << "\nRank-to-rank traffic (" << a.matrix.source << ")\n";
        for (const auto &c : a.matrix.cells)
            // As the Communication panel shows them: sizes in binary units, times in the
            // duration's unit, rates stepping down below 1 GB/s.
            out << "  " << c.srcRank << " -> " << c.dstRank << " " << c.transport << ": "
                << formatMegabytes(c.sizeMb) << " in "
                << formatDuration(std::llround(std::min(c.timeMs, 1e12) * 1e6))
                << (c.bandwidthGBps ? ", " + formatBandwidth(*c.bandwidthGBps) : std::string())
                << '\n';
    }
    if (!a.notes.empty())
        out << "\nNotes\n" << model::groupedText(a.notes.diagnostics());
    return out.str();
}

} // namespace stepscope::analysis

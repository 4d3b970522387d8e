// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "legacyfolder.h"

#include "import/detect/detect.h"
#include "import/mindspore/hcclraw.h"
#include "import/mindspore/legacysummaries.h"
#include "import/mindspore/outputtimeline.h"
#include "import/mindspore/steptraceraw.h"
#include "import/mindspore/timelinedisplay.h"

#include <algorithm>
#include <optional>

namespace stepscope::import::mindspore {

namespace {

namespace fs = std::filesystem;

bool isFile(const fs::path &p)
{
    std::error_code ec;
    return fs::is_regular_file(p, ec);
}

std::vector<fs::path> filesOfRank(const fs::path &dir, std::int32_t rank)
{
    std::vector<fs::path> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (isFile(it->path()) && detect::legacyRankOf(it->path().filename().string()) == rank)
            out.push_back(it->path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

bool startsWith(const std::string &s, std::string_view prefix)
{
    return s.compare(0, prefix.size(), prefix) == 0;
}

/// A timeline JSON read on its own builder (readTimelineDisplay owns its time mapping).
std::optional<model::Trace> readTimelineJson(const fs::path &file, const ImportContext &ctx)
{
    model::TraceBuilder builder;
    if (!readTimelineDisplay(file, ctx, builder))
        return std::nullopt;
    return builder.finish().trace;
}

} // namespace

std::vector<TracePart> readLegacyRank(
    const fs::path &dir, std::int32_t rank, const ImportContext &ctx)
{
    const std::string r = std::to_string(rank);
    const auto named = [&](const std::string &name) -> fs::path {
        const fs::path p = dir / name;
        return isFile(p) ? p : fs::path();
    };
    const fs::path stepTrace = named("step_trace_raw_" + r + "_detail_time.csv");
    const fs::path minCycle = named("min_cycle_counter_" + r + ".txt");
    const fs::path outputTimeline = named("output_timeline_data_" + r + ".txt");
    fs::path timelineJson = named("ascend_timeline_display_" + r + ".json");
    if (timelineJson.empty())
        timelineJson = named("timeline_display_" + r + ".json");
    const fs::path gpuTimeline = named("gpu_timeline_display_" + r + ".json");

    // The tick clock's origin (docs/formats.md §4.1).
    std::optional<std::int64_t> minCycleTicks;
    if (!minCycle.empty())
        minCycleTicks = readMinCycleCounter(minCycle, ctx);
    // Each candidate file is read once, and only when the ones before it give no origin.
    std::int64_t origin = 0;
    if (minCycleTicks) {
        origin = *minCycleTicks * TickNs;
    } else if (const std::int64_t first = stepTrace.empty() ? -1 : firstStepStartTicks(stepTrace);
               first >= 0) {
        origin = first * TickNs;
    } else if (const std::int64_t firstNs =
                   outputTimeline.empty() ? -1 : outputTimelineFirstStartNs(outputTimeline);
               firstNs >= 0 && firstNs <= MaxTicks * TickNs) {
        origin = firstNs;
    }

    model::TraceBuilder ticks;
    ticks.trace().originNs = origin;
    ticks.trace().rank = rank;
    ticks.trace().metadata.format = "mindspore-legacy";
    ticks.trace().metadata.rank = rank;
    std::vector<TracePart> parts;
    std::optional<model::Trace> timeline;
    if (!timelineJson.empty()) {
        timeline = readTimelineJson(timelineJson, ctx);
        if (timeline && !minCycleTicks)
            ctx.info(timelineJson,
                "min_cycle_counter_" + r
                    + ".txt is missing: this timeline cannot be placed on "
                      "the step trace's clock, so it is aligned with its "
                      "first event");
    }
    if (!stepTrace.empty()) {
        StepTraceOptions options;
        options.reduceLanes = !timeline.has_value();
        readStepTraceRaw(stepTrace, ctx, rank, ticks, options);
    }
    if (!timeline && !outputTimeline.empty())
        readOutputTimelineData(outputTimeline, ctx, rank, ticks);
    std::vector<fs::path> clusterAnalyse;
    for (const fs::path &file : filesOfRank(dir, rank)) {
        const std::string name = file.filename().string();
        if (startsWith(name, "hccl_raw_"))
            readHcclRaw(file, ctx, rank, ticks.trace());
        else if (startsWith(name, "ascend_cluster_analyse_")
            && readClusterAnalyse(file, ctx, rank, ticks.trace()) > 0)
            clusterAnalyse.push_back(file);
        else if (startsWith(name, "flops_summary_"))
            readFlopsSummary(file, ctx, ticks.trace());
        else if (startsWith(name, "minddata_pipeline_raw_"))
            readMinddataPipeline(file, ctx, ticks.trace());
        if (ctx.progress != nullptr)
            ctx.progress->checkCancel();
    }
    for (const fs::path &file : clusterAnalyse)
        placeClusterAnalyseRows(file, ctx, ticks.trace());
    parts.push_back(TracePart {ticks.finish().trace, true});
    if (timeline) {
        // timeline_display ts are us after min_cycle_counter: shift the part's origin onto
        // the tick clock (whatever origin the reader chose for its own events).
        std::int64_t shifted = 0;
        if (minCycleTicks
            && __builtin_add_overflow(timeline->originNs, *minCycleTicks * TickNs, &shifted))
            ctx.warn(
                timelineJson, "its times overflow int64 on the step trace's clock: left as read");
        else if (minCycleTicks)
            timeline->originNs = shifted;
        parts.push_back(TracePart {std::move(*timeline), minCycleTicks.has_value()});
    }
    if (!gpuTimeline.empty()) {
        if (auto gpu = readTimelineJson(gpuTimeline, ctx)) {
            ctx.info(gpuTimeline,
                "the GPU timeline uses wall-clock time, which cannot be "
                "related to the Ascend device ticks of the other files: it is "
                "aligned with their first event");
            parts.push_back(TracePart {std::move(*gpu), false});
        }
    }
    const auto hasAnything = [](const model::Trace &t) {
        return t.eventCount() > 0 || !t.steps.empty() || !t.referenceSteps.empty()
            || !t.collectives.empty() || !t.metadata.extra.empty() || !t.memory.empty();
    };
    parts.erase(std::remove_if(parts.begin(), parts.end(),
                    [&](const TracePart &p) { return !hasAnything(p.trace); }),
        parts.end());
    // The first part defines the clock; if the tick part was empty, the next one takes over.
    if (!parts.empty())
        parts.front().sameClock = true;
    return parts;
}

} // namespace stepscope::import::mindspore

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "model/loadreport.h"
#include "model/trace.h"
#include "util/saturate.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope::analysis {

/// What a piece of a step's wall time was spent on (docs/metrics.md, one set of definitions
/// for every format). Each kind has a stable key used in JSON, docs and tooltips.
enum class SegmentKind : std::uint8_t {
    Compute, ///< device computing (not memcpy/memset, see docs/metrics.md), no communication
    CommExposed, ///< communication not overlapped by compute (excluding pipeline bubble)
    CommOverlapped, ///< communication hidden under compute
    HostWait, ///< device idle, host busy with something else (other ops, sync)
    DataLoading, ///< device idle while the host is inside a DataLoader range
    LaunchGap, ///< device idle while the host is inside launch / runtime calls
    OtherIdle, ///< device idle, nothing on the host explains it
    Bubble, ///< pipeline-parallel receive wait
    Preparing, ///< step start to the first device task of the step
};
inline constexpr int SegmentKindCount = 9;

/// Stable key: "compute", "comm_exposed", "comm_overlapped", "host_wait", "data_loading",
/// "launch_gap", "other_idle", "bubble", "preparing".
std::string_view segmentKindKey(SegmentKind kind);
/// Label of the kind's lane segment: "Compute (not overlapped)", "Communication (exposed)", ...
std::string_view segmentKindName(SegmentKind kind);
/// Label of the kind's figure in tables (StepBreakdown::figureNs): as segmentKindName, but
/// "Compute" for Compute, which tables show whole.
std::string_view figureKindName(SegmentKind kind);
std::optional<SegmentKind> segmentKindFromKey(std::string_view key);

/// One category of the profiler's own breakdown next to ours.
struct ReferenceCategory
{
    std::string key; ///< our key ("compute", "comm_exposed", "comm_overlapped", "free", "bubble",
                     ///< "preparing")
    std::string column; ///< the profiler's column / lane name ("Computing", ...)
    double referenceUs = 0;
    double oursUs = 0;
    double differenceUs = 0; ///< ours - reference
    /// |difference| / max(reference, 1 % of the step): the figure the 1 % rule checks.
    double relativeDifference = 0;
};

/// The profiler's own numbers for a step (Ascend step_trace_time.csv, legacy step_trace_raw,
/// the Overlap Analysis lanes) with the difference per category.
struct StepReference
{
    std::string source; ///< file (relative) or "Overlap Analysis" lanes
    std::vector<ReferenceCategory> categories;
    /// Every category within 1 % (see relativeDifference).
    bool withinTolerance = true;
};

/// The TensorBoard PyTorch-profiler plugin's step breakdown, computed with its rules
/// (priority Kernel > Memcpy > Memset > Communication > Runtime > DataLoader > CPU Exec >
/// Other; its step boundaries extend to the step's device work). Kineto traces only.
struct TbBreakdown
{
    std::int64_t step = 0; ///< number of the ProfilerStep (0 when the trace has none)
    std::int64_t startNs = 0; ///< the plugin's step start (relative to the trace origin)
    std::int64_t endNs = 0; ///< the plugin's step end
    std::int64_t kernelNs = 0;
    std::int64_t memcpyNs = 0;
    std::int64_t memsetNs = 0;
    std::int64_t communicationNs = 0;
    std::int64_t runtimeNs = 0;
    std::int64_t dataLoaderNs = 0;
    std::int64_t cpuExecNs = 0;
    std::int64_t otherNs = 0;
    /// Sum of the eight categories (= endNs - startNs).
    std::int64_t totalNs() const;
};

/// Where a breakdown's numbers come from.
enum class BreakdownBasis : std::uint8_t {
    Timeline, ///< our definitions over the rank's timeline (no step table for the step)
    ProfilerTable, ///< the rank's step table row (step_trace_time.csv, cluster row, DB)
};

/// Our own figures for a step over the timeline, kept beside the table's numbers when the
/// breakdown's basis is ProfilerTable and the step is on the timeline. Same meaning and
/// identity as the StepBreakdown fields of the same names.
struct TimelineFigures
{
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    std::int64_t computeNs = 0;
    std::int64_t commExposedNs = 0;
    std::int64_t commOverlappedNs = 0;
    std::int64_t freeNs = 0;
    std::int64_t hostWaitNs = 0;
    std::int64_t dataLoadingNs = 0;
    std::int64_t launchGapNs = 0;
    std::int64_t otherIdleNs = 0;
    std::int64_t bubbleNs = 0;
    std::int64_t preparingNs = 0;
};

/// Whose step a StepBreakdown is: the profiler's (its number is the profiler's id), or ours.
enum class StepOrigin : std::uint8_t {
    Profiler, ///< ProfilerStep#N, Step/Iteration ranges, a step table, the importer's steps
    Inferred, ///< from repeated Optimizer.step# ranges, numbered 1… by us
    WholeTrace, ///< no steps found: the whole capture as one step
};

/// Where one step's wall time went, on one rank.
///
/// Identity (asserted by tests): preparingNs + computeNs + commExposedNs + bubbleNs + freeNs
/// == durationNs(), and freeNs == hostWaitNs + dataLoadingNs + launchGapNs + otherIdleNs.
/// commOverlappedNs is part of computeNs (it is comm ∩ compute), not added again.
///
/// With a step table (basis ProfilerTable, docs/metrics.md "The profiler's table is the
/// truth"): computeNs = Computing, commOverlappedNs = Overlapped, bubbleNs = Bubble,
/// commExposedNs = Communication(Not Overlapped) − Bubble, freeNs = Free, preparingNs =
/// Preparing (0 when the column is absent), stageNs = Stage; so durationNs() = Preparing +
/// Computing + Communication(Not Overlapped) + Free = Preparing + Stage + Bubble (the
/// profiler's identity, within its 0.4 us rounding). Our split of idle time is fitted into
/// Free (the four parts sum to it exactly).
struct StepBreakdown
{
    std::int32_t rank = 0;
    std::int64_t step = 0;
    std::int64_t startNs = 0; ///< relative to the trace origin
    std::int64_t endNs = 0;
    std::int64_t computeNs = 0; ///< union of device tasks that are not comm/memcpy/memset
    std::int64_t commExposedNs = 0; ///< comm − compute, bubble excluded
    std::int64_t commOverlappedNs = 0; ///< comm ∩ compute
    std::int64_t freeNs = 0; ///< device idle, except the preparing part (= the four below)
    std::int64_t hostWaitNs = 0;
    std::int64_t dataLoadingNs = 0;
    std::int64_t launchGapNs = 0;
    std::int64_t otherIdleNs = 0;
    std::int64_t bubbleNs = 0;
    std::int64_t preparingNs = 0;
    /// First start / last end of device work (compute or communication) in the step;
    /// both -1 when the step has none.
    std::int64_t deviceStartNs = -1;
    std::int64_t deviceEndNs = -1;
    std::optional<StepReference> reference;
    std::optional<TbBreakdown> tbBreakdown;
    BreakdownBasis basis = BreakdownBasis::Timeline;
    StepOrigin origin = StepOrigin::Profiler;
    /// The profiler's Stage (device span minus bubble) when the table gives it, else -1.
    std::int64_t stageNs = -1;
    /// Basis ProfilerTable and the step is on the timeline: our own figures.
    std::optional<TimelineFigures> timeline;
    /// Basis Timeline, and the step lies wholly before the trace's first or after its last
    /// device task (MindInsight records the timeline of the first steps only): its time
    /// reads as preparing, which is no measurement of the device. Findings and shares
    /// (rankBottlenecks, the KPIs' comm and data-wait shares) leave such steps out.
    bool untraced = false;
    /// Basis Timeline, and the device timeline ends inside the step while later steps lie
    /// wholly past it (or begins inside it while earlier ones lie before it): the capture
    /// of the device stopped (started) within the step. Its figures count the time outside
    /// the timeline as idle, which nothing measured: findings and shares leave it out as they
    /// leave out untraced steps.
    bool partlyTraced = false;
    /// Untraced or partly traced: not a measurement of the whole step's device time.
    bool outsideShares() const { return untraced || partlyTraced; }
    /// The rank's first step, lasting over WarmUpFactor times its other steps' median
    /// (markWarmUpSteps, warmup.h): the KPIs and the findings leave it out.
    bool warmUp = false;
    /// False when no timeline holds the step (basis ProfilerTable: a rank known only from a
    /// step table, or a row its timeline lacks). Its start is then where the step before it
    /// ends (0 for a rank's first), laid out from the table's durations, not a measurement:
    /// `summary` prints "start unknown", `--json` a null `start_us`, the Steps table "—".
    bool startMeasured = true;
    /// Free time split into host wait, data loading, launch gaps and other idle: that takes a
    /// timeline, so a step no timeline holds (!startMeasured) has the table's free time and
    /// unknown parts (held as 0 and other idle = free, shown as "—" and `null` in --json).
    bool freePartsKnown() const { return startMeasured; }

    /// The length, held at the int64 limits (the times come from files).
    std::int64_t durationNs() const { return util::satSub(endNs, startNs); }
    /// The ns of one kind as the step lane draws it: Compute is computeNs − commOverlappedNs.
    std::int64_t segmentNs(SegmentKind kind) const;
    /// The ns of one kind as tables show it (Steps table, compare): Compute is computeNs, the
    /// overlapped communication included, as `compute` in summary --json and the profiler's
    /// `Computing`; every other kind is its segment.
    std::int64_t figureNs(SegmentKind kind) const;
};

/// One interval of the step lane. Invariant: segments are sorted by start, do not overlap,
/// and per step the durations of each kind equal StepBreakdown::segmentNs(kind), taken from
/// StepBreakdown::timeline when the step has one that holds it (the lane shows where things
/// happened; detail::timelineHoldsStep). A step with no timeline (trace-less rank), or one
/// whose timeline holds under half its device time (trimmed), is drawn from its table: one block
/// per category in the profiler's column order (Computing, Communication(Not Overlapped) then its
/// bubble, Overlapped, Free in its parts, Preparing). An untraced step draws no segment.
struct LaneSegment
{
    /// Where the segment's place comes from, for the lane's tooltip.
    enum class Drawn : std::uint8_t {
        AsHappened, ///< measured on the timeline
        FromTable, ///< the step is on the timeline; its parts in the table's column order
        FromTableOnly, ///< no timeline holds the step (StepBreakdown::startMeasured false)
    };
    std::int64_t startNs = 0; ///< relative to the trace origin
    std::int64_t endNs = 0;
    SegmentKind kind = SegmentKind::OtherIdle;
    Drawn drawn = Drawn::AsHappened;
    std::int64_t step = 0;
};

/// Per-step breakdown of one rank (steps from detectSteps()). Never throws; an empty trace
/// or one without device events gives steps whose time is all idle (or the table's numbers
/// when the rank has a step table). With `notes`, each step whose timeline disagrees with the
/// table by more than 1 % of the step adds a Warning naming the step and the difference.
std::vector<StepBreakdown> computeBreakdowns(const model::Trace &trace);
std::vector<StepBreakdown> computeBreakdowns(const model::Trace &trace, model::LoadReport *notes);
/// The intervals the step lane draws (same definitions as computeBreakdowns()).
std::vector<LaneSegment> stepLaneSegments(const model::Trace &trace);
/// One pass over a trace: the breakdowns of computeBreakdowns() and the segments of
/// stepLaneSegments() from the same interval sets (the loader's analysis uses this).
struct BreakdownPass
{
    std::vector<StepBreakdown> steps;
    std::vector<LaneSegment> segments;
};
/// `notes` receives what computeBreakdowns(trace, notes) reports.
BreakdownPass computeBreakdownPass(const model::Trace &trace, model::LoadReport *notes = nullptr);
/// Breakdown passes over a trace run so far in this process (computeBreakdowns,
/// stepLaneSegments and computeBreakdownPass each count one): tests check that a load
/// computes the breakdown once per trace. Thread-safe.
std::uint64_t breakdownPassCount();
/// The TensorBoard-plugin breakdown alone, one entry per step (empty when the trace has no
/// ProfilerStep ranges or no host events).
std::vector<TbBreakdown> computeTbBreakdowns(const model::Trace &trace);

} // namespace stepscope::analysis

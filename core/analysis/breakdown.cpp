// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "breakdown.h"

#include "breakdowntable.h"
#include "intervalset.h"
#include "steps.h"
#include "steptracephases.h"
#include "tracedsteps.h"
#include "units.h"
#include "util/countof.h"
#include "util/text.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

namespace stepscope::analysis {

namespace {

using model::Category;
using model::TrackKind;
using util::startsWith;

/// A pipeline receive: Ascend `hcom_receive_…`, MindSpore `Receive-op…`, any name with
/// "recv" that is not a combined send/recv (NCCL SendRecv kernels cannot be told apart).
bool isReceive(std::string_view name)
{
    const std::string l = util::asciiLower(name);
    if (l.find("receive") != std::string::npos)
        return true;
    return l.find("recv") != std::string::npos && l.find("sendrecv") == std::string::npos;
}

bool isDataLoaderName(std::string_view name)
{
    return startsWith(name, "enumerate(DataLoader)") || startsWith(name, "enumerate(DataPipe)");
}

/// Every device and host interval set the definitions need, over the whole trace.
struct TraceSets
{
    IntervalSet compute;
    IntervalSet comm;
    IntervalSet receive;
    IntervalSet dataLoading;
    IntervalSet launch;
    IntervalSet hostBusy;
};

/// Name tests of collectSets(), done once per distinct name (a trace has millions of events
/// but few names).
class NameFlags
{
public:
    enum : std::uint8_t { Known = 1, Receive = 2, DataLoader = 4, Sync = 8, ProfilerStep = 16 };

    explicit NameFlags(const model::Trace &trace)
        : m_trace(trace)
        , m_flags(trace.strings.size(), 0)
    {
    }
    bool has(model::StringId id, std::uint8_t flag)
    {
        std::uint8_t &f = m_flags[id.value()];
        if (!(f & Known)) {
            const auto name = m_trace.strings.view(id);
            f = Known;
            if (isReceive(name))
                f |= Receive;
            if (isDataLoaderName(name))
                f |= DataLoader;
            if (util::asciiLower(name).find("synchron") != std::string::npos)
                f |= Sync;
            if (startsWith(name, "ProfilerStep#"))
                f |= ProfilerStep;
        }
        return (f & flag) != 0;
    }

private:
    const model::Trace &m_trace;
    std::vector<std::uint8_t> m_flags;
};

TraceSets collectSets(const model::Trace &trace)
{
    using Iv = IntervalSet::Interval;
    std::vector<Iv> compute, groupComm, streamComm, groupRecv, streamRecv, data, launch, busy;
    NameFlags names(trace);
    for (const auto &track : trace.tracks) {
        const TrackKind kind = track.info().kind;
        for (std::uint32_t i = 0; i < track.size(); ++i) {
            const Category cat = track.category(i);
            const Iv iv {track.start(i), track.end(i)};
            const model::StringId name = track.name(i);
            if (kind == TrackKind::DeviceStream) {
                // Any device task that is neither communication nor a copy is compute, as
                // Ascend counts it (DSA_SQE, 2024 "Other" tasks): docs/metrics.md.
                if (cat == Category::Compute || cat == Category::Other) {
                    compute.push_back(iv);
                } else if (cat == Category::Communication) {
                    streamComm.push_back(iv);
                    if (names.has(name, NameFlags::Receive))
                        streamRecv.push_back(iv);
                }
            } else if (kind == TrackKind::CommunicationGroup) {
                if (cat == Category::Communication) {
                    groupComm.push_back(iv);
                    if (names.has(name, NameFlags::Receive))
                        groupRecv.push_back(iv);
                }
            } else if (kind == TrackKind::HostThread) {
                if (cat == Category::DataLoading || names.has(name, NameFlags::DataLoader)) {
                    data.push_back(iv);
                } else if (cat == Category::Runtime) {
                    if (!names.has(name, NameFlags::Sync))
                        launch.push_back(iv);
                } else if (cat == Category::HostOp && !names.has(name, NameFlags::ProfilerStep)) {
                    busy.push_back(iv);
                }
            }
        }
    }
    TraceSets s;
    s.compute = IntervalSet::fromUnsorted(std::move(compute));
    // The communication operators (HCCL group lanes) define communication when present; the
    // stream tasks then are their plumbing or plain stream waits (docs/metrics.md).
    const bool groups = !groupComm.empty();
    s.comm = IntervalSet::fromUnsorted(groups ? std::move(groupComm) : std::move(streamComm));
    s.receive = IntervalSet::fromUnsorted(groups ? std::move(groupRecv) : std::move(streamRecv));
    s.dataLoading = IntervalSet::fromUnsorted(std::move(data));
    s.launch = IntervalSet::fromUnsorted(std::move(launch));
    s.hostBusy = IntervalSet::fromUnsorted(std::move(busy));
    return s;
}

/// One step's result plus the intermediate figures the reference comparison needs.
struct StepResult
{
    StepBreakdown b;
    std::vector<LaneSegment> segments;
    std::int64_t commNs = 0; ///< |comm| in the step
    std::int64_t spanIdleNs = 0; ///< idle between the first and last device task
    detail::IdleParts spanIdle; ///< idle after the first device task, split (no preparing)
};

void addSegments(
    std::vector<LaneSegment> *out, const IntervalSet &set, SegmentKind kind, std::int64_t step)
{
    if (!out)
        return;
    for (const auto &[s, e] : set.intervals())
        out->push_back(LaneSegment {s, e, kind, LaneSegment::Drawn::AsHappened, step});
}

/// The definitions of docs/metrics.md for one step window. Each category is computed as an
/// interval set so the lane draws exactly what the numbers add up.
StepResult analyseStep(
    const TraceSets &sets, const model::Step &step, std::int32_t rank, bool wantSegments)
{
    StepResult r;
    StepBreakdown &b = r.b;
    b.rank = rank;
    b.step = step.number;
    b.startNs = step.startNs;
    b.endNs = step.endNs;
    const std::int64_t s0 = step.startNs;
    const std::int64_t s1 = step.endNs;
    const IntervalSet window = IntervalSet::single(s0, s1);

    const IntervalSet compute = sets.compute.clipped(s0, s1);
    const IntervalSet comm = sets.comm.clipped(s0, s1);
    const IntervalSet overlapped = compute.intersect(comm);
    const IntervalSet commOnly = comm.subtract(compute);
    const IntervalSet bubble = sets.receive.clipped(s0, s1).subtract(compute);
    const IntervalSet exposed = commOnly.subtract(bubble);
    const IntervalSet busy = compute.unite(comm);

    b.computeNs = compute.length();
    b.commOverlappedNs = overlapped.length();
    b.bubbleNs = bubble.length();
    b.commExposedNs = exposed.length();
    r.commNs = comm.length();

    std::int64_t firstDevice = s1;
    if (!busy.empty()) {
        b.deviceStartNs = busy.intervals().front().first;
        b.deviceEndNs = busy.intervals().back().second;
        firstDevice = b.deviceStartNs;
        r.spanIdleNs = (b.deviceEndNs - b.deviceStartNs) - busy.length();
    }

    const IntervalSet prep = IntervalSet::single(s0, firstDevice);
    const IntervalSet prepData = prep.intersect(sets.dataLoading.clipped(s0, firstDevice));
    const IntervalSet preparing = prep.subtract(prepData);
    const IntervalSet idle = window.subtract(busy).subtract(prep);
    const IntervalSet idleData = idle.intersect(sets.dataLoading.clipped(s0, s1));
    const IntervalSet rest1 = idle.subtract(idleData);
    const IntervalSet launch = rest1.intersect(sets.launch.clipped(s0, s1));
    const IntervalSet rest2 = rest1.subtract(launch);
    const IntervalSet hostWait = rest2.intersect(sets.hostBusy.clipped(s0, s1));
    const IntervalSet other = rest2.subtract(hostWait);

    b.preparingNs = preparing.length();
    b.dataLoadingNs = prepData.length() + idleData.length();
    b.launchGapNs = launch.length();
    b.hostWaitNs = hostWait.length();
    b.otherIdleNs = other.length();
    b.freeNs = b.dataLoadingNs + b.launchGapNs + b.hostWaitNs + b.otherIdleNs;
    r.spanIdle = {b.hostWaitNs, idleData.length(), b.launchGapNs, b.otherIdleNs};

    if (wantSegments) {
        auto *out = &r.segments;
        addSegments(out, compute.subtract(comm), SegmentKind::Compute, step.number);
        addSegments(out, overlapped, SegmentKind::CommOverlapped, step.number);
        addSegments(out, exposed, SegmentKind::CommExposed, step.number);
        addSegments(out, bubble, SegmentKind::Bubble, step.number);
        addSegments(out, preparing, SegmentKind::Preparing, step.number);
        addSegments(out, prepData, SegmentKind::DataLoading, step.number);
        addSegments(out, idleData, SegmentKind::DataLoading, step.number);
        addSegments(out, launch, SegmentKind::LaunchGap, step.number);
        addSegments(out, hostWait, SegmentKind::HostWait, step.number);
        addSegments(out, other, SegmentKind::OtherIdle, step.number);
        std::sort(r.segments.begin(), r.segments.end(),
            [](const LaneSegment &a, const LaneSegment &c) { return a.startNs < c.startNs; });
    }
    return r;
}

/// A table step's lane from the timeline: the data loading before its first device task is
/// drawn as preparing, where the table counts it (TimelineFigures of a table step: the same).
void appendAsTable(const StepResult &r, std::vector<LaneSegment> &out)
{
    const std::int64_t firstDevice = detail::firstDeviceNs(r.b);
    for (LaneSegment s : r.segments) {
        if (s.kind == SegmentKind::DataLoading && s.endNs <= firstDevice)
            s.kind = SegmentKind::Preparing;
        if (!out.empty() && out.back().kind == s.kind && out.back().endNs == s.startNs
            && out.back().step == s.step)
            out.back().endNs = s.endNs;
        else
            out.push_back(s);
    }
}

/// Our figure for one of the profiler's columns (docs/metrics.md "Reference").
struct ColumnMap
{
    std::string_view column;
    std::string_view key;
    /// A step-trace phase: compared only where the phases make our figures (a rank with a
    /// step trace only). Elsewhere the phase is a span, idle gaps and all, of a timeline that
    /// measured the device itself.
    bool phase = false;
};
constexpr std::array<ColumnMap, 12> Columns = {{
    {"Computing", "compute"},
    {"Communication(Not Overlapped)", "comm_exposed"},
    {"Overlapped", "comm_overlapped"},
    {"Communication", "communication"},
    {"Free", "free"},
    {"Bubble", "bubble"},
    {"Preparing", "preparing"},
    {"Stage", "stage"},
    {"Communication(Not Overlapped and Exclude Receive)", "comm_exposed_excl_receive"},
    {"total", "step"},
    {"fp_and_bp", "fp_and_bp", true},
    {"iteration_interval", "data_loading", true},
}};

double oursFor(std::string_view key, const StepResult &r)
{
    const StepBreakdown &b = r.b;
    auto us = [](std::int64_t ns) { return static_cast<double>(ns) / 1000.0; };
    if (key == "compute")
        return us(b.computeNs);
    if (key == "comm_exposed")
        return us(b.commExposedNs + b.bubbleNs);
    if (key == "comm_overlapped")
        return us(b.commOverlappedNs);
    if (key == "communication")
        return us(r.commNs);
    if (key == "free")
        return us(r.spanIdleNs);
    if (key == "bubble")
        return us(b.bubbleNs);
    if (key == "preparing")
        return us(detail::firstDeviceNs(b) - b.startNs);
    if (key == "stage")
        return b.deviceStartNs < 0 ? 0.0 : us(b.deviceEndNs - b.deviceStartNs - b.bubbleNs);
    if (key == "comm_exposed_excl_receive")
        return us(b.commExposedNs);
    if (key == "fp_and_bp") // the forward/backward span: compute and the receives in it
        return us(b.computeNs + b.bubbleNs);
    if (key == "data_loading")
        return us(b.dataLoadingNs);
    return us(b.durationNs()); // "step"
}

StepReference compare(const std::vector<std::pair<std::string, double>> &values,
    const std::string &source, const StepResult &r, bool phases = false)
{
    StepReference ref;
    ref.source = source;
    const double floorUs = 0.01 * static_cast<double>(r.b.durationNs()) / 1000.0;
    for (const auto &[column, value] : values) {
        for (const auto &m : Columns) {
            if (m.column != column || (m.phase && !phases))
                continue;
            ReferenceCategory c;
            c.key = std::string(m.key);
            c.column = column;
            c.referenceUs = value;
            c.oursUs = oursFor(m.key, r);
            c.differenceUs = c.oursUs - c.referenceUs;
            c.relativeDifference =
                std::abs(c.differenceUs) / std::max({std::abs(value), floorUs, 1e-9});
            if (c.relativeDifference > 0.01)
                ref.withinTolerance = false;
            ref.categories.push_back(std::move(c));
        }
    }
    return ref;
}

/// The profiler's own Overlap Analysis lanes (Synthetic tracks) summed over the step.
std::vector<std::pair<std::string, double>> overlapLaneValues(
    const model::Trace &trace, const model::Step &step)
{
    std::vector<std::pair<std::string, double>> values;
    for (std::string_view lane :
        {"Computing", "Communication", "Communication(Not Overlapped)", "Free"}) {
        std::vector<IntervalSet::Interval> ivs;
        bool found = false;
        for (const auto &track : trace.tracks) {
            if (track.info().kind != TrackKind::Synthetic || track.info().threadName != lane)
                continue;
            found = true;
            for (std::uint32_t i = 0; i < track.size(); ++i)
                ivs.emplace_back(track.start(i), track.end(i));
        }
        if (!found)
            continue;
        const auto set = IntervalSet::fromUnsorted(std::move(ivs));
        values.emplace_back(std::string(lane),
            static_cast<double>(set.lengthIn(step.startNs, step.endNs)) / 1000.0);
    }
    return values;
}

const model::ReferenceStep *findReference(
    const model::Trace &trace, const model::Step &step, std::size_t stepCount)
{
    for (const auto &r : trace.referenceSteps) {
        if (r.step == step.number && r.kind != "stage")
            return &r;
    }
    if (stepCount == 1 && trace.referenceSteps.size() == 1 && trace.referenceSteps[0].step < 0
        && trace.referenceSteps[0].kind != "stage")
        return &trace.referenceSteps[0];
    return nullptr;
}

std::atomic<std::uint64_t> g_breakdownPasses {0};

/// A track holding what the device did: a stream's tasks or a communication group's ops.
bool isDeviceTrack(const model::Track &t)
{
    const model::TrackKind k = t.info().kind;
    return t.size() > 0
        && (k == model::TrackKind::DeviceStream || k == model::TrackKind::CommunicationGroup);
}

/// The first start and last end of the trace's device tasks; nullopt without any.
std::optional<std::pair<std::int64_t, std::int64_t>> deviceSpan(const model::Trace &trace)
{
    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    std::int64_t last = std::numeric_limits<std::int64_t>::min();
    for (const model::Track &t : trace.tracks) {
        if (!isDeviceTrack(t))
            continue;
        const auto [start, end] = t.extent();
        first = std::min(first, start);
        last = std::max(last, end);
    }
    if (first > last)
        return std::nullopt;
    return std::make_pair(first, last);
}

/// A rank with a step trace only: the phases become its compute and data loading, and the
/// device span covers the forward/backward phases (no step inside it is untraced).
void addPhases(TraceSets &sets, std::optional<std::pair<std::int64_t, std::int64_t>> &span,
    const detail::StepTracePhases &phases)
{
    const IntervalSet phaseCompute = IntervalSet::fromUnsorted(phases.compute);
    // A pipeline receive inside the forward/backward span is a wait (the bubble), not compute.
    sets.compute = phaseCompute.subtract(sets.receive).unite(sets.compute);
    sets.dataLoading = IntervalSet::fromUnsorted(phases.dataLoading).unite(sets.dataLoading);
    // The communication is on device tracks, so deviceSpan() holds it already.
    if (!phaseCompute.empty()) {
        const std::int64_t first = phaseCompute.intervals().front().first;
        const std::int64_t last = phaseCompute.intervals().back().second;
        span = span ? std::make_pair(std::min(span->first, first), std::max(span->second, last))
                    : std::make_pair(first, last);
    }
}

/// computeBreakdowns and, with `wantSegments`, stepLaneSegments from the same pass.
BreakdownPass runBreakdownPass(
    const model::Trace &trace, model::LoadReport *notes, bool wantSegments)
{
    g_breakdownPasses.fetch_add(1, std::memory_order_relaxed);
    BreakdownPass pass;
    const StepDetection detection = detectStepsWithSource(trace, nullptr);
    const auto &steps = detection.steps;
    std::vector<StepBreakdown> &out = pass.steps;
    if (steps.empty())
        return pass;
    TraceSets sets = collectSets(trace);
    auto span = deviceSpan(trace);
    // A step trace is the only record of the device: its phases say what the device did
    // (docs/metrics.md). A rank with a step table shows the table instead.
    const auto phases =
        detection.rows.empty() ? detail::stepTracePhases(trace, steps) : std::nullopt;
    if (phases)
        addPhases(sets, span, *phases);
    if (notes && detection.rows.empty() && !span)
        notes->add(model::Severity::Info, "rank " + std::to_string(trace.rank),
            "no device activity recorded (a CPU-only capture?): every step is host time, so "
            "it reads as preparing, with no compute or communication, and the bottleneck as "
            "host bound");
    std::vector<TbBreakdown> tb;
    if (trace.metadata.format == "kineto")
        tb = computeTbBreakdowns(trace);
    out.reserve(steps.size());
    std::vector<detail::Disagreement> disagreements; // noted once per table and column
    const auto nextStart = [&steps](std::size_t i) {
        return i + 1 < steps.size() ? steps[i + 1].startNs
                                    : std::numeric_limits<std::int64_t>::max();
    };
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const model::Step &step = steps[i];
        const model::ReferenceStep *row = detection.rows.empty() ? nullptr : detection.rows[i];
        if (row) {
            // The table is the truth; our figures for the same window stay beside it.
            const bool onTimeline = detection.onTimeline[i];
            StepResult r;
            if (onTimeline)
                r = analyseStep(sets, step, trace.rank, wantSegments);
            StepBreakdown b = detail::tableBreakdown(
                *row, step, trace.rank, onTimeline ? &r.b : nullptr, r.spanIdle);
            b.startMeasured = onTimeline;
            if (onTimeline) {
                b.reference = compare(row->valuesUs, row->source, r);
                if (auto d = detail::tableDisagreement(b))
                    disagreements.push_back(std::move(*d));
                if (detail::timelineHoldsStep(b))
                    appendAsTable(r, pass.segments);
                else if (wantSegments)
                    detail::appendTableSegments(b, pass.segments, nextStart(i));
            } else if (wantSegments) {
                detail::appendTableSegments(b, pass.segments, nextStart(i));
            }
            out.push_back(std::move(b));
            continue;
        }
        StepResult r = analyseStep(sets, step, trace.rank, wantSegments);
        r.b.untraced = span && (step.startNs >= span->second || step.endNs <= span->first);
        // The most detailed reference wins: a step_trace_time.csv row (every category), else
        // the Overlap Analysis lanes of this very timeline, else a file giving only the step
        // total (legacy step_trace_raw, which in mixed fixtures may even be another run).
        const auto *ref = findReference(trace, step, steps.size());
        const bool fullRow = ref && ref->find("Computing") != nullptr;
        const auto lanes = fullRow ? std::vector<std::pair<std::string, double>>()
                                   : overlapLaneValues(trace, step);
        if (fullRow || (ref && lanes.empty()))
            r.b.reference = compare(ref->valuesUs, ref->source, r, phases.has_value());
        else if (!lanes.empty())
            r.b.reference = compare(lanes, "Overlap Analysis", r);
        for (const auto &t : tb) {
            if (t.step == step.number)
                r.b.tbBreakdown = t;
        }
        if (!r.b.untraced) // nothing measured there: the lane stays empty, not yellow
            pass.segments.insert(pass.segments.end(), r.segments.begin(), r.segments.end());
        out.push_back(std::move(r.b));
    }
    if (span)
        detail::markPartlyTraced(out, pass.segments, *span);
    if (notes && span)
        detail::noteUntracedSteps(trace, out, *span, *notes);
    if (notes)
        for (auto &[source, message] : detail::disagreementNotes(trace.rank, disagreements))
            notes->add(model::Severity::Warning, source, message);
    if (detection.source == StepSource::Optimizer || detection.source == StepSource::WholeTrace)
        for (StepBreakdown &b : out)
            b.origin = detection.source == StepSource::Optimizer ? StepOrigin::Inferred
                                                                 : StepOrigin::WholeTrace;
    return pass;
}

} // namespace

std::vector<StepBreakdown> computeBreakdowns(const model::Trace &trace)
{
    return computeBreakdowns(trace, nullptr);
}

std::vector<StepBreakdown> computeBreakdowns(const model::Trace &trace, model::LoadReport *notes)
{
    return runBreakdownPass(trace, notes, false).steps;
}

std::vector<LaneSegment> stepLaneSegments(const model::Trace &trace)
{
    return runBreakdownPass(trace, nullptr, true).segments;
}

BreakdownPass computeBreakdownPass(const model::Trace &trace, model::LoadReport *notes)
{
    return runBreakdownPass(trace, notes, true);
}

std::uint64_t breakdownPassCount()
{
    return g_breakdownPasses.load(std::memory_order_relaxed);
}

} // namespace stepscope::analysis

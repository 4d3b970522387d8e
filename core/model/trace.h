// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "argstable.h"
#include "eventids.h"
#include "ids.h"
#include "memory.h"
#include "stringtable.h"
#include "track.h"
#include "util/saturate.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace stepscope::model {

/// A directed link between two events (launch -> kernel, forward -> backward, host -> device).
struct Flow
{
    EventRef from;
    EventRef to;
    StringId category; ///< e.g. "ac2g", "async_npu", "fwdbwd"
};

/// A training step on one rank: [startNs, endNs) relative to the trace origin.
struct Step
{
    std::int64_t number = 0;
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    /// The length, held at the int64 limits (the times come from files).
    std::int64_t durationNs() const { return util::satSub(endNs, startNs); }
};

/// One named series of a counter (a process's "AI Core Freq" in MHz, "HBM 0/Read" in MB/s).
/// Invariant: timestamps sorted ascending, same length as values.
struct CounterSeries
{
    std::string process; ///< process name (or id) the counter belongs to
    std::string name; ///< counter event name
    std::string key; ///< args key, usually carrying the unit: "MHz", "Read(MB/s)"
    std::vector<std::int64_t> timestampsNs;
    std::vector<double> values;
};

/// A breakdown of one step as the profiler itself computed it, kept beside ours.
/// Values are microseconds keyed by the profiler's own column names.
struct ReferenceStep
{
    std::int32_t rank = 0;
    std::int64_t step = -1; ///< -1 when the file had no step number
    std::string source; ///< file it came from, relative to the opened folder
    std::vector<std::pair<std::string, double>> valuesUs;
    /// Empty for a rank's own breakdown; in cluster summaries "rank" (one rank's row) or
    /// "stage" (a pipeline stage: every value is the column maximum over its ranks).
    std::string kind;
    /// kind "stage": the ranks of the stage, as written (rank is then -1).
    std::vector<std::int32_t> stageRanks;

    /// The value of `key`, or nullptr.
    const double *find(const std::string &key) const;
};

/// Traffic of one link of a collective or p2p op (bytes in MB, time in ms as written).
struct LinkTraffic
{
    std::string transport; ///< HCCS, RDMA, PCIE, SDMA, SIO, NVLink...
    double sizeMb = 0;
    double timeMs = 0;
    double bandwidthGbps = -1; ///< -1 when not given
};

/// One communication operator's timing as the profiler summarised it.
struct CollectiveStat
{
    std::int32_t rank = 0;
    std::string step; ///< "step50" or "" when no step
    std::string name; ///< op name without the group hash
    std::string group; ///< group hash or ranks tuple
    bool p2p = false;
    double startUs = -1;
    double elapseMs = 0;
    double transitMs = 0;
    double waitMs = 0;
    double synchronizationMs = 0;
    double idleMs = 0;
    std::vector<LinkTraffic> links;
};

/// One rank-to-rank entry of a communication matrix.
struct CommMatrixEntry
{
    std::string step;
    std::string op;
    std::int32_t srcRank = 0;
    std::int32_t dstRank = 0;
    LinkTraffic traffic;
};

/// A profiler's per-operator statistics row (op_statistic.csv and the like).
struct OpStatistic
{
    std::string name;
    std::string coreType;
    std::int64_t count = 0;
    double totalUs = 0;
    double minUs = 0;
    double avgUs = 0;
    double maxUs = 0;
};

/// A group of ranks that communicate (data / tensor / pipeline parallel...).
struct ParallelGroup
{
    std::string name; ///< group name or hash
    std::string kind; ///< "dp", "tp", "pp", ... or empty when unknown
    std::vector<std::int32_t> ranks;
};

/// What we know about the run and the profiler that recorded this rank.
struct RunMetadata
{
    std::string format; ///< importer name: "kineto", "ascend", "mindspore-legacy", "cann-prof"
    std::int32_t rank = 0;
    /// The file itself names `rank` (Kineto's distributedInfo, read in full): the loader
    /// keeps it over a number of its own.
    bool rankNamed = false;
    std::int32_t worldSize = 0; ///< 0 = unknown
    std::string device; ///< device name as the profile gives it ("NVIDIA A100-SXM4-80GB")
    std::string deviceId;
    std::string profilerLevel;
    std::vector<std::string> sourceFiles; ///< relative to the opened folder
    std::map<std::string, std::string> extra; ///< other key/value facts worth showing
};

/// One rank's profile, immutable once loaded and shared as `std::shared_ptr<const Trace>`.
///
/// Times are int64 ns relative to originNs (absolute wall-clock ns since the Unix epoch when
/// the format gives one, else the format's own clock). Flows refer to final event indices.
/// Steps are sorted by start. Thread-safe for concurrent reads.
struct Trace
{
    std::int32_t rank = 0;
    std::int64_t originNs = 0;
    StringTable strings;
    ArgsTable args;
    std::vector<Track> tracks;
    std::vector<Flow> flows;
    /// Only events that carry an id, sorted by event (track, then index).
    EventIdTable eventIds;
    std::vector<Step> steps;
    std::vector<CounterSeries> counters;
    MemoryData memory;
    std::vector<ReferenceStep> referenceSteps;
    std::vector<CollectiveStat> collectives;
    std::vector<CommMatrixEntry> commMatrix;
    /// The files (and tables) `collectives` and `commMatrix` were read from, as the user
    /// would look them up: "communication.json", "analysis.db CommAnalyzerTime", ...
    std::string collectivesSource;
    std::string commMatrixSource;
    std::vector<OpStatistic> opStatistics;
    std::vector<ParallelGroup> parallelGroups;
    RunMetadata metadata;

    Trace() = default;
    Trace(const Trace &) = delete;
    Trace &operator=(const Trace &) = delete;
    Trace(Trace &&) noexcept = default;
    Trace &operator=(Trace &&) noexcept = default;

    const Track &track(TrackId id) const { return tracks.at(id.value()); }
    std::uint64_t eventCount() const;
    /// Bytes the trace holds resident: tracks, strings, args (with their sources' indexes),
    /// flows, event ids, counters and memory events. For memory tests and the benchmark.
    std::size_t memoryBytes() const;
    /// Earliest start and latest end over all tracks, relative ns; {0, 0} when empty.
    std::pair<std::int64_t, std::int64_t> extent() const;
    /// The ids of an event, nullptr when it has none. O(log n).
    std::optional<EventIds> idsOf(EventRef event) const;
    /// Empty when every track's invariants hold and flows point at existing events.
    std::string checkInvariants() const;
};

} // namespace stepscope::model

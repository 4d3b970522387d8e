// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// The cluster view of a multi-rank run (docs/metrics.md "Cluster"): a rank × step matrix of
// the step time and each category, a per-rank table, stragglers by a robust per-step rule,
// pipeline stages with their bubble, communication groups and the cluster-wide shares.
// Every figure is computed over all ranks of the session (trace-less ranks included: their
// breakdowns come from the profiler's step table). Cost is linear in ranks × steps plus the
// communication records.

#include "breakdown.h"
#include "model/session.h"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stepscope::analysis {

/// One layer of the rank × step matrix.
enum class ClusterMetric : std::uint8_t {
    Step, ///< StepBreakdown::durationNs()
    Compute, ///< computeNs (overlapped communication included, as the profiler's Computing)
    CommExposed, ///< commExposedNs (not overlapped, bubble excluded)
    CommOverlapped, ///< commOverlappedNs
    Free, ///< freeNs
    Bubble, ///< bubbleNs
    Preparing, ///< preparingNs
};
inline constexpr int ClusterMetricCount = 7;
/// "step", "compute", "comm_exposed", "comm_overlapped", "free", "bubble", "preparing".
std::string_view clusterMetricKey(ClusterMetric metric);
/// "Step time", "Compute", "Communication (exposed)", ...
std::string_view clusterMetricName(ClusterMetric metric);
/// The metric's ns in one breakdown.
std::int64_t clusterMetricNs(const StepBreakdown &b, ClusterMetric metric);

/// Dense rank × step matrix (rank-major). A cell is -1 when that rank has no such step.
struct ClusterMatrix
{
    std::vector<std::int32_t> ranks; ///< sorted ascending
    std::vector<std::int64_t> steps; ///< step ids, sorted ascending
    std::array<std::vector<std::int64_t>, ClusterMetricCount> cellsNs;

    std::size_t rankIndexOf(std::int32_t rank) const; ///< ranks.size() when absent
    std::size_t stepIndexOf(std::int64_t step) const; ///< steps.size() when absent
    /// ns, or -1 when the cell is empty.
    std::int64_t at(ClusterMetric metric, std::size_t rankIndex, std::size_t stepIndex) const;
    bool has(std::size_t rankIndex, std::size_t stepIndex) const;
    /// Smallest and largest filled value of a metric ({0, 0} when none): the colour scale.
    std::pair<std::int64_t, std::int64_t> range(ClusterMetric metric) const;
};

/// Why a straggler is slow: the category whose excess over its peers' median is largest.
enum class StragglerReason : std::uint8_t {
    None,
    SlowCompute, ///< Compute above the peers
    CommunicationWait, ///< exposed communication above the peers
    PipelineBubble, ///< pipeline bubble above the peers
    FreeTime, ///< free + preparing time above the peers
};
/// "none", "slow_compute", "communication_wait", "pipeline_bubble", "free_time".
std::string_view stragglerReasonKey(StragglerReason reason);

/// One rank's row of the cluster table.
struct ClusterRankRow
{
    std::int32_t rank = 0;
    std::int32_t stage = -1; ///< index into ClusterAnalysis::stages, -1 when unknown
    bool hasTimeline = false; ///< the rank's trace has events (its timeline can be opened)
    std::int64_t stepCount = 0;
    std::int64_t stepMeanNs = 0;
    std::int64_t stepMedianNs = 0;
    std::int64_t stepMaxNs = 0;
    /// Mean over the rank's steps of each metric (index = ClusterMetric).
    std::array<std::int64_t, ClusterMetricCount> meanNs {};
    /// stepMeanNs minus the median of stepMeanNs over all ranks, and as a fraction of it.
    std::int64_t deviationNs = 0;
    double deviationFraction = 0;
    std::int64_t stragglerSteps = 0; ///< steps in which this rank is a straggler
    StragglerReason reason = StragglerReason::None; ///< most frequent reason over those steps
};

/// One (rank, step) flagged by the rule: step time > peers' median + threshold, with
/// threshold = max(k · 1.4826 · MAD, minFraction · median) over the peers of that step
/// (peers = the rank's pipeline stage when stages are known, else all ranks).
struct Straggler
{
    std::int32_t rank = 0;
    std::int64_t step = 0;
    std::int64_t stepNs = 0;
    std::int64_t peerMedianNs = 0;
    std::int64_t thresholdNs = 0; ///< the excess allowed
    StragglerReason reason = StragglerReason::None;
    std::int64_t reasonExcessNs = 0; ///< the reason's category minus its peers' median
    std::string explanation; ///< one readable sentence
};

/// A pipeline stage: its ranks and bubble.
struct PipelineStage
{
    std::int32_t index = 0;
    std::vector<std::int32_t> ranks; ///< sorted
    /// "cluster_step_trace_time.csv stage rows", "communication_group.json p2p" or
    /// "ascend_cluster_analyse_pipeline-parallel file names"
    std::string source;
    std::int64_t stepMeanNs = 0; ///< mean over the stage's ranks and steps
    std::int64_t bubbleMeanNs = 0;
    std::int64_t bubbleMaxNs = 0;
    double bubbleShare = 0; ///< bubble / step time, summed over the stage's ranks and steps
};

/// Traffic of one transport within a group.
struct TransportStat
{
    std::string transport; ///< RDMA, HCCS, PCIE, SDMA, SIO, LOCAL...
    double sizeMb = 0;
    double timeMs = 0;
    std::optional<double> bandwidthGBps; ///< sizeMb / timeMs
    std::int64_t links = 0;
};

/// One collective of a group, over its calls and ranks.
struct GroupCollective
{
    std::string name;
    std::int64_t calls = 0; ///< (rank, step) records
    double elapseMs = 0;
    double waitMs = 0;
    double transitMs = 0;
    double waitShare = 0; ///< wait / (wait + transit), 0 when both are 0
    std::int32_t slowestRank = -1; ///< largest transit time
};

/// The slowest link (lowest bandwidth with data moved) of one transport within a group.
struct SlowLink
{
    std::string transport; ///< RDMA, HCCS, PCIE, SIO...
    std::int32_t src = 0;
    std::int32_t dst = 0;
    double bandwidthGBps = 0;
    double sizeMb = 0; ///< of that matrix entry
    double timeMs = 0;
    std::int64_t links = 0; ///< matrix entries of this transport in the group
};

/// A communication group (cluster_communication.json rank tuple, or a group hash).
struct CommGroupSummary
{
    std::string group; ///< "(0, 1, 2, 3)", "p2p" or a hash
    /// Members: the ranks of the tuple key (or of the communication_group.json entry it
    /// names) and those seen in the records, sorted.
    std::vector<std::int32_t> ranks;
    bool p2p = false;
    double elapseMs = 0;
    double waitMs = 0;
    double transitMs = 0;
    /// Rank with the largest summed transit time (it is slow moving data, the others wait).
    std::int32_t slowestRank = -1;
    double slowestRankTransitMs = 0;
    std::vector<TransportStat> transports; ///< by transport name
    /// Slowest link (lowest bandwidth) of the matrix among this group's ranks.
    std::optional<std::int32_t> slowestLinkSrc;
    std::optional<std::int32_t> slowestLinkDst;
    std::string slowestLinkTransport;
    std::optional<double> slowestLinkBandwidthGBps;
    std::vector<SlowLink> slowestLinks; ///< one per transport, by transport name
    std::vector<GroupCollective> collectives; ///< by elapse time, largest first
};

/// The cluster communication share (docs/metrics.md "Cluster communication share").
struct ClusterShares
{
    std::int64_t stepNs = 0; ///< summed over every (rank, step)
    std::int64_t computeNs = 0;
    std::int64_t commExposedNs = 0; ///< bubble excluded
    std::int64_t bubbleNs = 0;
    std::int64_t freeNs = 0;
    std::int64_t preparingNs = 0;
    double commShare = 0; ///< commExposed / step: the headline figure (bubble its own category)
    double bubbleShare = 0; ///< bubble / step, shown beside it
    double commShareWithBubble = 0; ///< (commExposed + bubble) / step, for comparison
};

struct ClusterAnalysis
{
    /// Where the step rows come from: "cluster_step_trace_time.csv" when the session has
    /// the profiler's cluster table, else "rank step tables and timelines".
    std::string stepSource;
    std::int64_t rankCount = 0; ///< ranks with at least one step
    std::int64_t timelineRanks = 0; ///< of which have a timeline
    /// The job's world size as the files state it (Kineto distributedInfo, Ascend
    /// profiler_info), the largest of them; 0 when no file states one.
    std::int32_t worldSize = 0;
    /// Ranks below worldSize the session has no data of (no trace, no step row), as
    /// [first, last] runs: a sampled or trimmed capture of a larger job.
    std::vector<std::pair<std::int32_t, std::int32_t>> missingRanks;
    std::int64_t missingRankCount = 0;
    ClusterMatrix matrix;
    std::vector<ClusterRankRow> ranks; ///< sorted by rank
    double stragglerK = 3.0; ///< the rule's k
    double stragglerMinFraction = 0.02; ///< the rule's floor, fraction of the median
    std::vector<Straggler> stragglers; ///< by step then rank
    std::vector<PipelineStage> stages; ///< by first rank
    std::vector<CommGroupSummary> groups; ///< by elapse time, largest first
    ClusterShares shares;
    std::optional<std::int32_t> slowestRank; ///< largest mean step time

    /// True when there is something to show as a cluster (two ranks or more).
    bool isCluster() const { return rankCount > 1; }
    const ClusterRankRow *row(std::int32_t rank) const;
};

/// "2–127", "3, 7–9": runs of ranks as a short text (at most `limit` runs, then "…").
std::string rankRunsText(
    const std::vector<std::pair<std::int32_t, std::int32_t>> &runs, std::size_t limit = 8);

/// The cluster analysis from the breakdowns of every rank (computeBreakdowns of each trace,
/// concatenated) and the session's cluster summaries. Never throws.
ClusterAnalysis analyzeCluster(
    const model::Session &session, const std::vector<StepBreakdown> &breakdowns);

/// The rank a comparison shows by default: the slowest rank (largest mean step time), else
/// the first rank of the session, else 0.
std::int32_t defaultCompareRank(
    const model::Session &session, const std::vector<StepBreakdown> &breakdowns);

/// The `cluster` object of `summary --json` (docs/metrics.md "Cluster"): ranks, stages,
/// stragglers, groups, shares and the matrix (us).
nlohmann::json clusterJson(const ClusterAnalysis &cluster);

} // namespace stepscope::analysis

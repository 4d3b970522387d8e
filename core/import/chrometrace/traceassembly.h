// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "argscollector.h"
#include "chunk.h"
#include "import/importcontext.h"
#include "model/packedcolumn.h"
#include "model/tracebuilder.h"
#include "tracereader.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace stepscope::import::chrometrace {

/// Gathers chunk results in chunk order and, once the file is read, builds tracks, flows and
/// counters into a TraceBuilder.
///
/// Everything that needs the whole file waits for finish(): metadata can follow the events
/// it names, B/E pairs and flows cross chunk boundaries, and the time offset may come from a
/// top-level key after the event array. Staged events are kept per lane (pid, tid) as
/// parallel arrays in arrival order; finish() moves them lane by lane into the builder and
/// frees each lane as it goes. Not thread-safe: used by the reading thread only.
class TraceAssembly
{
public:
    TraceAssembly(const Dialect &dialect, const ImportContext &ctx, std::string file,
        model::TraceBuilder &out);

    /// Args on demand: the kept args become records of `source` as the chunks are merged; the
    /// text was staged only for the events whose dialect asked for it. Null: they stay resident.
    /// Call before the first merge(), with the ChunkParser's ParseSettings::argsOnDemand.
    void setRecords(std::shared_ptr<const model::ArgsSource> source);
    /// Takes the chunk's events into the lanes; its args are moved out. The chunk can then be
    /// filled again (ChunkResult::clearForReuse).
    void merge(ChunkResult &chunk);
    /// The bytes the event array spans, when known (a plain file): the lanes and flow points
    /// are then given room for what the rest of the file projects, rather than doubling (each
    /// doubling faults in a fresh block and copies the old one into it).
    void expectBytes(std::uint64_t bytes) { m_expectedBytes = bytes; }
    void finish(TopLevel &top);
    const PhaseCounts &counts() const { return m_counts; }
    bool empty() const;

private:
    struct Mark
    {
        std::int64_t ts = 0;
        std::int64_t offset = 0;
        model::StringId name;
        model::StringId cat;
        model::StringId asyncId;
        model::ArgsId args;
        EventArgIds ids;
        std::uint8_t category = 0;
        std::uint8_t flags = 0;
        char phase = 'B';
    };
    struct Lane
    {
        model::StringId pid;
        model::StringId tid;
        std::vector<std::int64_t> ts;
        std::vector<std::int64_t> dur;
        std::vector<model::StringId> name;
        std::vector<model::StringId> cat;
        std::vector<model::ArgsId> args;
        model::PackedId correlation; ///< the dialect's ids (EventArgIds)
        model::PackedId externalId;
        EventArgIds ids(std::size_t i) const { return {correlation[i], externalId[i]}; }
        std::vector<std::uint8_t> category;
        std::vector<std::uint8_t> flags;
        std::vector<Mark> marks; // B/E/b/e in file order
        void push(std::int64_t t, std::int64_t d, model::StringId n, model::StringId c,
            model::ArgsId a, const EventArgIds &i, std::uint8_t cls, std::uint8_t f);
        void reserve(std::size_t n);
        /// Events equal to an earlier one in name, start and duration, the lane taken in
        /// `order` (start ascending, longer first; empty: the lane's own order is that).
        std::uint64_t exactRepeats(const std::vector<std::uint32_t> &order) const;
        void push(const Mark &m, std::int64_t d, std::uint8_t f)
        {
            push(m.ts, d, m.name, m.cat, m.args, m.ids, m.category, f);
        }
    };
    struct Counter
    {
        std::int64_t ts = 0;
        double value = 0;
        model::StringId pid;
        model::StringId name;
        model::StringId key;
    };
    struct ThreadKey
    {
        std::uint32_t pid;
        std::uint32_t tid;
        bool operator<(const ThreadKey &o) const
        {
            return pid != o.pid ? pid < o.pid : tid < o.tid;
        }
    };
    /// Flow points bound to an event (provisional ref), by index in m_flows.
    using Binding = std::vector<model::EventRef>;

    void addRecords(const ChunkResult &chunk, std::uint64_t argsBase);
    /// The text staged for the event with staged args id `id` ("" when none was).
    std::string_view stagedText(model::ArgsId id) const;
    /// expectBytes(): room for the projected size of the lanes `chunk` added to (`lanes`: its
    /// lane numbers here) and of the flow points.
    void growAhead(const ChunkResult &chunk, const std::vector<std::uint32_t> &lanes);
    void resolveMarks(Lane &lane, std::int64_t traceEnd);
    /// A lane's track, the provisional index its first event will have, and what the dialect
    /// was told about the lane's process and thread.
    struct LaneTrack
    {
        model::TrackId id;
        std::uint32_t base = 0;
        ProcessMeta process;
        ThreadMeta thread;
        model::TrackKind kind = model::TrackKind::HostThread;
    };
    /// The distinct `cat` of the lane's events (Dialect::classifyByCategories).
    std::vector<std::string_view> laneCategories(const Lane &lane) const;
    /// Finds or adds the lane's track and names it; `pending` counts, per track, the events
    /// of lanes given a track before this one and not built yet.
    LaneTrack laneTrack(
        const Lane &lane, std::unordered_map<std::uint32_t, std::uint32_t> &pending);
    /// Counts the lane's partial overlaps and binds its flow points (`flows`, in m_flows; put
    /// in time order).
    void bindLane(
        const Lane &lane, const LaneTrack &at, Binding &binding, std::vector<std::uint32_t> &flows);
    /// Hands the lane's events to the dialect and its columns to its track.
    void buildLane(Lane &lane, const LaneTrack &at, std::int64_t shift);
    void linkFlows(const Binding &binding, TopLevel &top);
    void buildCounters(std::int64_t shift);
    ProcessMeta processMeta(model::StringId pid) const;
    ThreadMeta threadMeta(model::StringId pid, model::StringId tid) const;
    std::string_view str(model::StringId id) const
    {
        return id.isValid() && id.value() < m_out.trace().strings.size()
            ? m_out.trace().strings.view(id)
            : std::string_view();
    }

    const Dialect &m_dialect;
    const ImportContext &m_ctx;
    std::string m_file;
    model::TraceBuilder &m_out;
    bool m_keepArgs = true;
    std::uint32_t m_argsBase = 0;

    model::StringTable m_ids;
    /// Every kept args object, in chunk order; filled by m_collector (when the load has more
    /// than one thread) until finish() joins it, so only finish() reads it.
    model::ArgsTable m_args;
    std::uint64_t m_argsStaged = 0; ///< entries pushed into m_args so far
    bool m_onDemand = false; ///< set by setRecords
    /// The records' source in the trace's args (NoSource only if the trace refused it).
    std::uint32_t m_source = NoSource;
    static constexpr std::uint32_t NoSource = 0xffffffffu;
    /// On demand: the staged id of each entry of m_args (ascending), for stagedText().
    std::vector<std::uint32_t> m_stagedAt;
    std::unique_ptr<ArgsCollector> m_collector;
    bool m_argsThread = false; ///< append args on m_collector's thread
    std::uint64_t m_unclosed = 0; // B/b never closed, over all lanes
    std::int64_t m_unclosedOffset = -1;
    std::vector<Lane> m_lanes;
    std::uint64_t m_expectedBytes = 0;
    std::unordered_map<std::uint64_t, std::uint32_t> m_laneIndex;
    std::vector<Counter> m_counters;
    std::vector<ChunkFlow> m_flows; // lane/cat/id remapped to assembly ids
    std::map<std::uint32_t, ProcessMeta> m_processes;
    std::map<ThreadKey, ThreadMeta> m_threads;
    PhaseCounts m_counts;
    std::uint64_t m_eventsAdded = 0;
    std::uint64_t m_partialOverlaps = 0;
    std::uint64_t m_repeatedDeviceEvents = 0; ///< bindLane: exact repeats on device streams
};

} // namespace stepscope::import::chrometrace

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Internal to the trace-event reader: a chunk of whole events cut from the event array, and
// what one worker makes of it. Workers own their ChunkResult (strings, args, report); the
// reader merges results in chunk order, so the outcome does not depend on thread timing.

#include "model/argstable.h"
#include "model/loadreport.h"
#include "model/stringtable.h"
#include "tracereader.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace stepscope::import::chrometrace {

/// Whole events, as the bytes `[` event (, event)* `]` followed by simdjson padding.
struct Chunk
{
    std::uint64_t index = 0;
    std::uint64_t fileOffset = 0; ///< (decompressed) file offset of text[jsonStart + 1]
    /// "[" + events + "]" + padding bytes from text[jsonStart] on. A range's chunk leaves
    /// the file's bytes where the read put them and writes its '[' over the byte before the
    /// first event: no move of the whole chunk.
    std::string text;
    std::size_t jsonStart = 0;
    std::size_t jsonSize = 0; ///< bytes of JSON from jsonStart (without padding)
    /// [begin, end) of each event within text.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> events;
    /// The file offset of the event that starts at text[begin].
    std::int64_t offsetOf(std::uint32_t begin) const
    {
        return static_cast<std::int64_t>(fileOffset + begin - jsonStart - 1);
    }
    /// Something other than commas and blanks sat between two events: parse event by event.
    bool dirty = false;
};

/// Flags of ChunkEvent / staged events.
enum EventFlag : std::uint8_t {
    FlagDeferred = 1, ///< category decided at the end by the dialect
    FlagUnfinished = 2, ///< B without E, b without e
    FlagHookArgs = 4, ///< the dialect asked for the args text (EventClass::needArgs)
};

/// One X / B / E / i / b / e / n event of a chunk. Strings are ids into the chunk's table.
struct ChunkEvent
{
    std::int64_t ts = 0; ///< file ns
    std::int64_t dur = 0; ///< ns, X only
    std::int64_t offset = 0; ///< byte offset in the file
    std::uint32_t lane = 0; ///< index into ChunkResult::lanes
    model::StringId name;
    model::StringId cat;
    model::StringId asyncId; ///< b/e/n: cat + id (or id2) as text, in ChunkResult::ids
    model::ArgsId args;
    EventArgIds ids; ///< Dialect::readIds()
    char phase = 'X';
    std::uint8_t category = 0;
    std::uint8_t flags = 0;
};

struct ChunkMeta
{
    enum class Kind : std::uint8_t {
        ProcessName,
        ProcessLabels,
        ProcessSort,
        ThreadName,
        ThreadSort
    };
    Kind kind = Kind::ProcessName;
    model::StringId pid;
    model::StringId tid;
    model::StringId text;
    std::int64_t sortIndex = 0;
};

struct ChunkCounter
{
    std::int64_t ts = 0;
    double value = 0;
    model::StringId pid;
    model::StringId name;
    model::StringId key;
};

struct ChunkFlow
{
    std::int64_t ts = 0;
    std::int64_t offset = 0;
    /// The id exactly, without a string table where it can: decimal text of up to 19 digits
    /// (ints and strings alike, 19-digit ints > 2^53 included) is idLow = its value with idTag
    /// = its digit count; any other text (longer numbers too) is interned in ChunkResult::ids,
    /// idTag = OtherId and idLow = its string id. Equal ids give equal (idTag, idLow).
    std::uint64_t idLow = 0;
    /// v2 flows (`bind_id` on an X): the slice itself, found by its start and duration.
    std::int64_t bindDur = -1;
    std::uint32_t lane = 0;
    model::StringId cat;
    std::uint8_t idTag = 0;
    static constexpr std::uint8_t OtherId = 0xff;
    char phase = 's';
    bool bindEnclosing = false; ///< s, t, or f with bp "e"
};

/// Lane key: (pid, tid) as text; async lanes use tid "async:<name>".
struct ChunkLane
{
    model::StringId pid;
    model::StringId tid;
};

struct PhaseCounts
{
    std::uint64_t complete = 0, begin = 0, end = 0, instant = 0, counter = 0, counterPoints = 0,
                  metadata = 0, flowPoints = 0, async = 0, other = 0, skipped = 0;
    void add(const PhaseCounts &o);
};

struct ChunkResult
{
    std::uint64_t index = 0;
    model::StringTable strings; ///< names, categories, pids, tids, counter keys
    model::StringTable ids; ///< flow and async ids (kept out of the trace's strings)
    model::ArgsTable args;
    /// Args on demand only: the record offset (the event's byte offset) of each kept args
    /// entry, which an event's ArgsId numbers. `args` then holds just the text staged for the
    /// events with FlagHookArgs: its entry j is the text of record stagedAt[j].
    std::vector<std::uint64_t> argsOffsets;
    std::vector<std::uint32_t> stagedAt;
    std::vector<ChunkLane> lanes;
    std::vector<ChunkEvent> events;
    std::vector<ChunkMeta> metas;
    std::vector<ChunkCounter> counters;
    std::vector<ChunkFlow> flows;
    model::LoadReport report;
    PhaseCounts counts;
    std::uint64_t fileBytes = 0; ///< progress to report once merged

    /// Empties the result for the next chunk but keeps the room of its longest lists (events,
    /// flows, record offsets): a worker then fills the same pages chunk after chunk instead of
    /// faulting in fresh ones (blocks of 1 MiB and more go back to the kernel when freed).
    void clearForReuse();
};

/// Settings every worker reads (immutable during a load).
struct ParseSettings
{
    const Dialect *dialect = nullptr;
    std::string file; ///< relative name for diagnostics
    bool keepArgs = true;
    /// With keepArgs: stage the args text only where the dialect asks for it (needArgs);
    /// every other event keeps just its record offset.
    bool argsOnDemand = false;
    /// Read plain events without simdjson (plainevent.h). Off only to compare the two.
    bool plainEvents = true;
};

/// Parses one chunk: plain events by readPlainEvent (plainevent.h), any other by strict
/// simdjson On-Demand (one by one, or the rest of the chunk in one pass once they are many),
/// and an event that is not strict JSON with a tolerant fallback. Never throws.
/// Not thread-safe per ChunkParser; give each worker its own.
class ChunkParser
{
public:
    ChunkParser();
    ~ChunkParser();
    ChunkParser(const ChunkParser &) = delete;
    ChunkParser &operator=(const ChunkParser &) = delete;

    ChunkResult parse(const Chunk &chunk, const ParseSettings &settings);
    /// The same, filling `reuse` (ChunkResult::clearForReuse) rather than a new result.
    ChunkResult parse(const Chunk &chunk, const ParseSettings &settings, ChunkResult reuse);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace stepscope::import::chrometrace

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// The format-agnostic Chrome trace-event reader (docs/formats.md §8a). Format importers (Kineto,
// Ascend trace_view, MindSpore timeline_display, CANN PROF timeline) implement a Dialect that
// classifies tracks and events and maps file timestamps to absolute ns; readTraceFile() does
// everything else: reading (plain or gzip), cutting the event array into chunks at event
// boundaries (a plain file's byte ranges by the workers themselves, rangescan.h; gzip as it
// inflates, eventscanner.h), parsing chunks with simdjson On-Demand on a worker pool, lenient
// JSON, phases, nesting, flows, counters, metadata, diagnostics, progress and cancel.

#include "argscan.h"
#include "import/importcontext.h"
#include "model/category.h"
#include "model/ids.h"
#include "model/tracebuilder.h"
#include "model/track.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace stepscope::import::chrometrace {

/// What `M` metadata said about one process (pid as written in the file, normalised: the
/// int 25738 and the string "25738" are the same process).
struct ProcessMeta
{
    std::string id; ///< pid as text
    std::string name; ///< process_name, empty when never named
    std::string labels; ///< process_labels ("CPU", "NPU", "GPU 0"), empty when absent
    std::int64_t sortIndex = 0;
    bool hasSortIndex = false;
};

/// What `M` metadata said about one thread of a process.
struct ThreadMeta
{
    std::string id; ///< tid as text; "" for process- and global-scoped instants
    std::string name; ///< thread_name, empty when never named
    std::int64_t sortIndex = 0;
    bool hasSortIndex = false;
    bool async = false; ///< an async (b/e/n) lane; id is "async:<name>"
};

/// The fields of one event a dialect may look at to pick its category. Views are valid for
/// the duration of the call only.
struct EventFields
{
    char phase = 'X';
    std::string_view category; ///< `cat`, may be empty
    std::string_view name;
    std::string_view processId;
    std::string_view threadId;
    /// `args` as written in the file (not minified) in classifyEvent() and readIds(); in
    /// classifyDeferred() compact JSON when the event asked for it (EventClass::needArgs),
    /// else empty. Empty when absent.
    std::string_view args;
    /// When set, every member of `args` in file order (no object inside it): what
    /// argInts(members, ...) reads in place of the text. Null: read the text.
    const std::vector<ArgMember> *argMembers = nullptr;
};

/// Ids a dialect reads from an event's args on the chunk worker (Dialect::readIds), so that
/// onEvent has them without the args text being staged: the load keeps the text only of the
/// events that ask for it (EventClass::needArgs). -1 = none.
struct EventArgIds
{
    std::int64_t correlation = -1;
    std::int64_t externalId = -1;
};

/// A dialect's verdict on one event.
struct EventClass
{
    model::Category category = model::Category::Other;
    /// Decide at the end with Dialect::classifyDeferred(), when the process and thread
    /// names are known (metadata may come after the events).
    bool deferred = false;
    /// Hand `args` to Dialect::onEvent (the text is staged until then). Without it onEvent
    /// sees no args text, only the ids of readIds(), whatever ImportContext::options say.
    bool needArgs = false;
};

/// One finished event, as handed to Dialect::onEvent after the whole file was read.
struct EventInfo
{
    char phase = 'X'; ///< 'X' (also for matched B/E and async b/e), 'i' for instants
    model::TrackId track;
    std::uint32_t index = 0; ///< provisional index in the TraceBuilder's TrackBuilder
    const model::TrackInfo *trackInfo = nullptr;
    std::int64_t startNs = 0; ///< relative to the TraceBuilder's trace().originNs
    std::int64_t durationNs = 0;
    bool unfinished = false;
    model::Category category = model::Category::Other;
    std::string_view name;
    std::string_view cat; ///< `cat` as written
    std::string_view args; ///< compact JSON, empty unless EventClass::needArgs
    EventArgIds ids; ///< what Dialect::readIds() found, when args are kept
};

/// The top level of the file besides the events.
struct TopLevel
{
    bool objectForm = false; ///< `{"traceEvents": [...]}` rather than a bare array
    /// Every other top-level key of the object form (deviceProperties, distributedInfo,
    /// baseTimeNanoseconds, schemaVersion, ...), parsed as small JSON. Keys whose value is
    /// not valid JSON are left out (with a diagnostic).
    nlohmann::json keys = nlohmann::json::object();

    /// What was read, by phase, for tests and the summary. Counts are events in the file.
    struct Counts
    {
        std::uint64_t complete = 0; ///< X
        std::uint64_t begin = 0; ///< B
        std::uint64_t end = 0; ///< E
        std::uint64_t instant = 0; ///< i, I, R
        std::uint64_t counter = 0; ///< C events (points = one per numeric args key)
        std::uint64_t counterPoints = 0;
        std::uint64_t metadata = 0; ///< M
        std::uint64_t flowPoints = 0; ///< s, t, f
        std::uint64_t flowsLinked = 0; ///< flows added to the TraceBuilder
        std::uint64_t async = 0; ///< b, e, n
        std::uint64_t other = 0; ///< phases we do not show (P, O, N, D, ...)
        std::uint64_t skipped = 0; ///< events dropped with a diagnostic
        std::uint64_t eventsAdded = 0; ///< events added to tracks by this call
        std::uint64_t partialOverlaps = 0;
        std::uint64_t chunks = 0;
        /// Byte ranges of a plain file whose guessed first event was wrong, cut again.
        std::uint64_t rangesRecut = 0;
    } counts;
    bool truncated = false; ///< the event array was never closed
    std::int64_t timeOffsetNs = 0; ///< what Dialect::timeOffsetNs returned
};

/// How a format's trace-event dialect is read. classifyEvent() runs on worker threads
/// concurrently and must not touch shared mutable state; every other member runs on the
/// thread that called readTraceFile(), after the whole file was read, so implementations
/// may collect into `mutable` members there.
class Dialect
{
public:
    virtual ~Dialect() = default;

    /// The kind of a track, from its process and thread metadata (complete at this point).
    virtual model::TrackKind classifyTrack(
        const ProcessMeta &process, const ThreadMeta &thread) const = 0;

    /// The kind of a track classifyTrack() found to be a host thread, from the `cat` values of
    /// its events (distinct, in first-seen order, at most MaxLaneCategories; empty when it
    /// has more): a device's lanes in a file whose metadata is missing (cut before it).
    virtual model::TrackKind classifyByCategories(const ProcessMeta &process,
        const ThreadMeta &thread, const std::vector<std::string_view> &categories) const
    {
        (void)process;
        (void)thread;
        (void)categories;
        return model::TrackKind::HostThread;
    }
    static constexpr std::size_t MaxLaneCategories = 8;

    /// The category of an X/B/i/b event. Thread-safe, called from chunk workers.
    virtual EventClass classifyEvent(const EventFields &event) const = 0;

    /// The ids of an X/B/i/b/n event with args (`event.args` as written, with the event's
    /// unknown fields appended), for onEvent. Thread-safe, called from chunk workers, only
    /// when ImportContext::options.keepArgs is on.
    virtual void readIds(const EventFields &event, EventArgIds &ids) const
    {
        (void)event;
        (void)ids;
    }

    /// What a needArgs event stages for onEvent and classifyDeferred when nobody else reads
    /// the text (args on demand, or not kept): a dialect may write here, in its own form,
    /// only what it will read, and return true; false stages the compact JSON. Thread-safe,
    /// called from chunk workers. (A 1 GB Kineto trace holds 673 k `[memory]` instants.)
    virtual bool stageArgs(const EventFields &event, std::string &out) const
    {
        (void)event;
        (void)out;
        return false;
    }

    /// The category of an event classifyEvent() deferred, now that names are known.
    virtual model::Category classifyDeferred(const ProcessMeta &process, const ThreadMeta &thread,
        model::TrackKind kind, const EventFields &event) const
    {
        (void)process;
        (void)thread;
        (void)kind;
        (void)event;
        return model::Category::Other;
    }

    /// absolute ns = file ns + timeOffsetNs(top). File ns = `ts` µs × 1000 exactly.
    /// Identity (0), Kineto's baseTimeNanoseconds, CANN's monotonic→wall shift.
    virtual std::int64_t timeOffsetNs(const TopLevel &top) const
    {
        (void)top;
        return 0;
    }

    /// Called once per event added to a track (slices and instants), lane by lane in file
    /// order within each lane, before the TraceBuilder is finished: collect steps, memory...
    /// `event.index` is the event's provisional index in its track; a lane's events join the
    /// track after its last onEvent, so read the EventInfo, not the builder's track.
    virtual void onEvent(const EventInfo &event, model::TraceBuilder &out) const
    {
        (void)event;
        (void)out;
    }
};

/// Reads a Chrome-trace JSON file (object or bare-array form, plain or gzip) into `out`.
///
/// - Tracks: one per (pid, tid) that has events, rank = out.trace().rank, reusing a track of
///   `out` with the same processId/threadId (so several files of one rank can be read into
///   one builder). Instants of scope `p` go to thread id "" of their process, scope `g` to
///   process "" thread "".
/// - Times: relative to out.trace().originNs; when `out` has no tracks yet and originNs is
///   0, originNs is set to the earliest absolute time in the file.
/// - Counters go to out.trace().counters (one series per process name/name/args key), flows
///   to out.addFlow, args to out.trace().args when ctx.options.keepArgs.
/// - Diagnostics go to ctx.report with the relative file name and byte offsets.
///
/// Returns false only when nothing usable was read (an Error diagnostic says why). Throws
/// nothing except util::Cancelled from ctx.progress->checkCancel(), after joining workers.
bool readTraceFile(const std::filesystem::path &file, const Dialect &dialect,
    const ImportContext &ctx, model::TraceBuilder &out, TopLevel *topLevel = nullptr);

} // namespace stepscope::import::chrometrace

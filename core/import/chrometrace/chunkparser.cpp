// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Parses one chunk of trace events: plain events by readPlainEvent, the others through
// simdjson (one pass over the rest of the chunk, or event by event with a tolerant fallback);
// chunkrecords.cpp handles flows, metadata and counters.
#include "chunkparser_p.h"
#include "plainevent.h"

#include <algorithm>
#include <memory>

namespace stepscope::import::chrometrace {

using model::Severity;
using model::StringId;

void PhaseCounts::add(const PhaseCounts &o)
{
    complete += o.complete;
    begin += o.begin;
    end += o.end;
    instant += o.instant;
    counter += o.counter;
    counterPoints += o.counterPoints;
    metadata += o.metadata;
    flowPoints += o.flowPoints;
    async += o.async;
    other += o.other;
    skipped += o.skipped;
}

void ChunkResult::clearForReuse()
{
    ChunkResult next;
    next.events = std::move(events);
    next.flows = std::move(flows);
    next.argsOffsets = std::move(argsOffsets);
    next.events.clear();
    next.flows.clear();
    next.argsOffsets.clear();
    *this = std::move(next);
}

using namespace fields;

ChunkParser::ChunkParser()
    : m_impl(std::make_unique<Impl>())
{
}

ChunkParser::~ChunkParser() = default;

Status ChunkParser::Impl::readEvent(od::object &obj, RawEvent &ev)
{
    extras.clear();
    for (auto fieldResult : obj) {
        od::field field;
        if (std::move(fieldResult).get(field))
            return Status::JsonError;
        const char *rawKey = field.key().raw(); // unescaped_key() consumes the key
        std::string_view key = escapedKey(rawKey); // what the file says, the key as a rule
        if (key.find('\\') != std::string_view::npos && field.unescaped_key().get(key))
            return Status::JsonError;
        od::value v = field.value();
        if (key == "args") {
            od::json_type type;
            if (v.type().get(type))
                return Status::JsonError;
            if (type == od::json_type::object) {
                od::object a;
                if (v.get_object().get(a) || a.raw_json().get(ev.args))
                    return Status::JsonError;
                ev.hasArgs = true;
            }
            continue;
        }
        if (key == "id2") {
            od::object a;
            if (v.get_object().get(a) != simdjson::SUCCESS)
                continue;
            for (auto inner : a) {
                od::field f;
                std::string_view k;
                if (std::move(inner).get(f) || f.unescaped_key().get(k))
                    return Status::JsonError;
                od::value iv = f.value();
                Scalar *t = k == "local" ? &ev.id2Local : k == "global" ? &ev.id2Global : nullptr;
                if (t && readScalar(iv, *t) != simdjson::SUCCESS)
                    return Status::JsonError;
            }
            continue;
        }
        if (Scalar *target = scalarField(ev, key)) {
            if (readScalar(v, *target) != simdjson::SUCCESS)
                return Status::JsonError;
            continue;
        }
        // Unknown (tts, tdur, sf, ...): kept as an arg, raw.
        std::string_view raw;
        if (rawValue(v, raw) != simdjson::SUCCESS)
            return Status::JsonError;
        extras.emplace_back(escapedKey(rawKey), raw);
    }
    return Status::Ok;
}

Status ChunkParser::Impl::commitEvent(const RawEvent &ev, std::int64_t offset, const char *textEnd)
{
    const char phase = ev.ph.text.empty() ? '\0' : ev.ph.text.front();
    PhaseCounts &counts = result->counts;
    if (!ev.ph.present || phase == '\0') {
        skip(offset, "event dropped: no `ph` (phase)");
        return Status::Skipped;
    }
    const std::string_view pid = ev.pid.text;
    const std::string_view tid = ev.tid.present ? ev.tid.text : pid;

    if (phase == 'M') {
        ++counts.metadata;
        addMetadata(ev, offset, textEnd);
        return Status::Ok;
    }
    const bool known = phase == 'X' || phase == 'B' || phase == 'E' || phase == 'i' || phase == 'I'
        || phase == 'R' || phase == 'C' || phase == 's' || phase == 't' || phase == 'f'
        || phase == 'b' || phase == 'e' || phase == 'n';
    if (!known) {
        ++counts.other;
        result->report.add(Severity::Info, settings->file,
            std::string("events of phase '") + phase + "' are not shown", 0, offset);
        return Status::Ok;
    }
    if (!ev.ts.present) {
        skip(offset, std::string("event dropped: phase '") + phase + "' event without `ts`");
        return Status::Skipped;
    }
    const auto ts = time(ev.ts, "ts", offset);
    if (!ts)
        return Status::Skipped;

    if (phase == 'C') {
        ++counts.counter;
        addCounter(ev, *ts, offset, textEnd);
        return Status::Ok;
    }
    if (phase == 's' || phase == 't' || phase == 'f') {
        const std::string_view id = eventId(ev);
        if (id.empty()) {
            skip(offset, "flow event dropped: no `id`");
            return Status::Skipped;
        }
        ++counts.flowPoints;
        ChunkFlow flow;
        flow.ts = *ts;
        flow.offset = offset;
        flow.lane = lane(pid, tid);
        flow.cat = result->strings.intern(ev.cat.text);
        encodeFlowId(id, flow);
        flow.phase = phase;
        flow.bindEnclosing = phase != 'f' || ev.bp.text == "e";
        result->flows.push_back(flow);
        return Status::Ok;
    }

    ChunkEvent out;
    out.ts = *ts;
    out.offset = offset;
    out.phase = phase;
    if (phase == 'X') {
        if (!ev.dur.present) {
            skip(offset, "event dropped: complete ('X') event without `dur`");
            return Status::Skipped;
        }
        const auto dur = time(ev.dur, "dur", offset);
        if (!dur)
            return Status::Skipped;
        if (*dur < 0) {
            skip(offset, "event dropped: negative `dur`");
            return Status::Skipped;
        }
        out.dur = *dur;
        ++counts.complete;
    } else if (phase == 'B') {
        ++counts.begin;
    } else if (phase == 'E') {
        ++counts.end;
    } else if (phase == 'b' || phase == 'e' || phase == 'n') {
        ++counts.async;
    } else {
        ++counts.instant;
        out.phase = 'i';
    }

    // Lane.
    if (phase == 'b' || phase == 'e' || phase == 'n') {
        std::string asyncLane = "async:";
        asyncLane.append(ev.name.text.empty() ? ev.cat.text : ev.name.text);
        out.lane = lane(pid, asyncLane);
        const std::string_view id = eventId(ev);
        std::string key(ev.cat.text);
        key.push_back('\x1f');
        key.append(id);
        out.asyncId = result->ids.intern(key);
    } else if (out.phase == 'i' && ev.scope.text == "g") {
        out.lane = lane({}, {});
    } else if (out.phase == 'i' && ev.scope.text == "p") {
        out.lane = lane(pid, {});
    } else {
        out.lane = lane(pid, tid);
    }
    out.name = result->strings.intern(ev.name.text);
    out.cat = result->strings.intern(ev.cat.text);

    // E and e events close a slice: their category and ids are the begin's.
    const bool closing = phase == 'E' || phase == 'e';
    EventFields fields;
    fields.phase = out.phase;
    fields.category = ev.cat.text;
    fields.name = ev.name.text;
    fields.processId = pid;
    fields.threadId = tid;
    fields.args = ev.args;
    bool hookArgs = false;
    if (!closing) {
        const EventClass cls = settings->dialect->classifyEvent(fields);
        out.category = static_cast<std::uint8_t>(cls.category);
        if (cls.deferred)
            out.flags |= FlagDeferred;
        hookArgs = cls.needArgs;
        if (hookArgs)
            out.flags |= FlagHookArgs;
    }
    if ((ev.hasArgs || !extras.empty()) && (settings->keepArgs || hookArgs)) {
        fields.args = withExtras(ev);
        fields.argMembers = ev.flatArgs && extras.empty() ? &argMembers : nullptr;
        if (settings->keepArgs && !closing)
            settings->dialect->readIds(fields, out.ids);
        const bool shown = settings->keepArgs && !settings->argsOnDemand;
        staged.clear();
        if (hookArgs && !shown && settings->dialect->stageArgs(fields, staged))
            out.args = keepArgs(staged, offset, true, false);
        else
            out.args = keepArgs(fields.args, offset, hookArgs || shown);
    }
    result->events.push_back(out);
    if (ev.bindId.present && !closing && out.phase != 'i')
        addBoundFlow(ev, out, offset);
    return Status::Ok;
}

Status ChunkParser::Impl::parseOne(std::string_view text, std::int64_t offset)
{
    eventBuffer.assign(text);
    eventBuffer.append(simdjson::SIMDJSON_PADDING, ' ');
    od::document doc;
    od::object obj;
    RawEvent ev;
    if (parser.iterate(eventBuffer.data(), text.size(), eventBuffer.size()).get(doc)
        || doc.get_object().get(obj) || readEvent(obj, ev) != Status::Ok)
        return Status::JsonError;
    // On-Demand does not validate what it skips: malformed text can close the object before
    // its last brace. Nothing may follow the object.
    const char *next = nullptr;
    if (doc.current_location().get(next) != simdjson::OUT_OF_BOUNDS)
        return Status::JsonError;
    return commitEvent(ev, offset, eventBuffer.data() + eventBuffer.size());
}

namespace {

/// Whether the token On-Demand reads next lies in [min, max]. On-Demand does not validate
/// what it skips, so malformed text can end an event's object before or after the brace the
/// cutter found: an element must start at its own `{`, and the token after it must lie
/// between its `}` and the next element's start (only blanks and a comma sit there).
bool nextTokenWithin(od::value &element, const char *min, const char *max)
{
    const char *at = nullptr;
    return element.current_location().get(at) == simdjson::SUCCESS && at >= min && at <= max;
}

} // namespace

void ChunkParser::Impl::parseFallback(const Chunk &chunk, std::size_t k, std::size_t stop)
{
    for (; k < stop; ++k) {
        const auto [begin, end] = chunk.events[k];
        const std::string_view text(chunk.text.data() + begin, end - begin);
        const auto offset = chunk.offsetOf(begin);
        if (parseOne(text, offset) != Status::JsonError)
            continue;
        std::string fixed;
        const LenientFixes fixes = makeStrict(text, fixed);
        if (fixes.any() && parseOne(fixed, offset) != Status::JsonError) {
            result->report.add(Severity::Warning, settings->file,
                "event is not strict JSON (" + fixes.describe() + "); read leniently", 0, offset);
            continue;
        }
        skip(offset, "event dropped: malformed JSON");
    }
}

ChunkResult ChunkParser::parse(const Chunk &chunk, const ParseSettings &settings)
{
    return parse(chunk, settings, ChunkResult());
}

std::size_t ChunkParser::Impl::parseArray(const Chunk &chunk, std::size_t from)
{
    od::document doc;
    od::array array;
    const char *const json = chunk.text.data() + chunk.jsonStart;
    if (parser.iterate(json, chunk.jsonSize, chunk.text.size() - chunk.jsonStart).get(doc)
            != simdjson::SUCCESS
        || doc.get_array().get(array) != simdjson::SUCCESS)
        return from;
    const char *text = chunk.text.data();
    std::size_t k = 0;
    for (auto elementResult : array) {
        od::value element;
        if (k >= chunk.events.size() || elementResult.get(element))
            break;
        if (k < from) { // read already: On-Demand steps over it
            ++k;
            continue;
        }
        const auto [begin, end] = chunk.events[k];
        const char *next = k + 1 < chunk.events.size() ? text + chunk.events[k + 1].first
                                                       : json + chunk.jsonSize - 1;
        od::object obj;
        RawEvent ev;
        if (!nextTokenWithin(element, text + begin, text + begin) || element.get_object().get(obj)
            || readEvent(obj, ev) != Status::Ok || !nextTokenWithin(element, text + end, next))
            break; // this event and the rest go event by event
        commitEvent(ev, chunk.offsetOf(begin), chunk.text.data() + chunk.text.size());
        ++k;
    }
    return std::max(k, from);
}

ChunkResult ChunkParser::parse(const Chunk &chunk, const ParseSettings &settings, ChunkResult reuse)
{
    ChunkResult result = std::move(reuse);
    result.clearForReuse();
    // At most one entry per event: one allocation, where growing from empty moved and
    // page-faulted the list a dozen times in every file of a thousand-rank cluster.
    result.events.reserve(chunk.events.size());
    result.index = chunk.index;
    Impl &d = *m_impl;
    d.settings = &settings;
    d.result = &result;
    d.laneIndex.clear();
    d.hasLast = false;
    const std::size_t n = chunk.events.size();
    std::size_t k = 0;
    if (!chunk.dirty) {
        // Plain events in one walk each (plainevent.h); the few that are not plain one by one
        // through simdjson, and the rest of the chunk in one simdjson pass once they are many.
        constexpr std::size_t MaxPlainMisses = 16;
        std::size_t misses = 0;
        const char *const textEnd = chunk.text.data() + chunk.text.size();
        for (; settings.plainEvents && k < n; ++k) {
            const auto [begin, end] = chunk.events[k];
            const auto offset = chunk.offsetOf(begin);
            RawEvent ev;
            if (readPlainEvent(std::string_view(chunk.text.data() + begin, end - begin), ev,
                    d.extras, d.argMembers)) {
                d.commitEvent(ev, offset, textEnd);
                continue;
            }
            if (++misses > MaxPlainMisses)
                break;
            d.parseFallback(chunk, k, k + 1);
        }
        if (k < n)
            k = d.parseArray(chunk, k);
    }
    if (k < n)
        d.parseFallback(chunk, k, n);
    d.result = nullptr;
    return result;
}

} // namespace stepscope::import::chrometrace

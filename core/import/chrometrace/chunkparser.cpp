// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "chunk.h"
#include "jsonfields.h"
#include "lenientjson.h"
#include "tracereader.h"
#include "util/decimal.h"

#include <simdjson.h>

#include <cmath>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace stepscope::import::chrometrace {

namespace od = simdjson::ondemand;
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

using namespace fields;

struct ChunkParser::Impl
{
    od::parser parser;
    od::parser argsParser;
    std::string eventBuffer; // padded copy of one event for the fallback path
    std::string minified;
    std::string merged; // args plus the event's unknown fields
    std::string idText; // async / flow id built from id2 or bind_id
    /// Fields of the event the reader does not use (tts, tdur, sf, ...): escaped key, raw
    /// JSON value. Kept as args.
    std::vector<std::pair<std::string_view, std::string_view>> extras;
    const char *bufferEnd = nullptr; // end of the padded buffer being parsed
    const ParseSettings *settings = nullptr;
    ChunkResult *result = nullptr;
    std::unordered_map<std::string, std::uint32_t> laneIndex;
    std::string laneKey;

    std::string lastPid;
    std::string lastTid;
    std::uint32_t lastLane = 0;
    bool hasLast = false;

    std::uint32_t lane(std::string_view pid, std::string_view tid)
    {
        // Consecutive events mostly share a thread: skip the hash lookup then.
        if (hasLast && pid == lastPid && tid == lastTid)
            return lastLane;
        lastLane = lookupLane(pid, tid);
        lastPid.assign(pid);
        lastTid.assign(tid);
        hasLast = true;
        return lastLane;
    }

    std::uint32_t lookupLane(std::string_view pid, std::string_view tid)
    {
        laneKey.assign(pid);
        laneKey.push_back('\x1f');
        laneKey.append(tid);
        auto it = laneIndex.find(laneKey);
        if (it != laneIndex.end())
            return it->second;
        const auto idx = static_cast<std::uint32_t>(result->lanes.size());
        result->lanes.push_back({result->strings.intern(pid), result->strings.intern(tid)});
        laneIndex.emplace(laneKey, idx);
        return idx;
    }

    void skip(std::int64_t offset, std::string message)
    {
        ++result->counts.skipped;
        result->report.add(Severity::Warning, settings->file, std::move(message), 0, offset);
    }

    /// A time field (`ts`/`dur`) as exact ns; nullopt (with a diagnostic) when bad.
    std::optional<std::int64_t> time(const Scalar &s, const char *field, std::int64_t offset)
    {
        if (s.badType) {
            skip(offset,
                std::string("event dropped: `") + field + "` must be a number, got " + typeWord(s));
            return std::nullopt;
        }
        auto ns = util::parseMicrosToNanos(s.text);
        if (!ns) {
            skip(offset,
                std::string("event dropped: `") + field + "` is not a number ("
                    + (s.isString ? "string" : "value") + " \"" + std::string(s.text.substr(0, 40))
                    + "\")");
        }
        return ns;
    }

    /// `args` with the unknown fields of the event appended as further keys.
    std::string_view withExtras(const RawEvent &ev)
    {
        if (extras.empty())
            return ev.args;
        merged.clear();
        std::string_view head = ev.hasArgs ? trimRight(ev.args) : std::string_view("{}");
        head.remove_suffix(1); // the closing brace
        merged.append(head);
        bool empty = head.find_first_not_of(" \t\r\n", 1) == std::string_view::npos;
        for (const auto &[key, raw] : extras) {
            if (!empty)
                merged.push_back(',');
            empty = false;
            merged.push_back('"');
            merged.append(key);
            merged.append("\":");
            merged.append(raw);
        }
        merged.push_back('}');
        return merged;
    }

    model::ArgsId keepArgs(std::string_view raw)
    {
        minified.resize(raw.size());
        std::size_t len = 0;
        if (simdjson::minify(raw.data(), raw.size(), minified.data(), len) != simdjson::SUCCESS)
            return result->args.add(raw);
        return result->args.add(std::string_view(minified.data(), len));
    }

    void encodeFlowId(std::string_view id, ChunkFlow &flow)
    {
        bool digits = !id.empty() && id.size() <= 38;
        for (std::size_t i = 0; digits && i < id.size(); ++i)
            digits = id[i] >= '0' && id[i] <= '9';
        if (!digits) {
            flow.idTag = ChunkFlow::OtherId;
            flow.idLow = result->ids.intern(id).value();
            return;
        }
        auto value = [](std::string_view text) {
            std::uint64_t v = 0;
            for (char c : text)
                v = v * 10 + static_cast<std::uint64_t>(c - '0');
            return v;
        };
        const std::size_t split = id.size() > 19 ? id.size() - 19 : 0;
        flow.idHigh = value(id.substr(0, split));
        flow.idLow = value(id.substr(split));
        flow.idTag = static_cast<std::uint32_t>(id.size());
    }

    /// The id of an async or flow event: `id`, else `id2.global` (the same namespace), else
    /// `id2.local` (scoped to the process: async lanes are per process). Empty when none.
    std::string_view eventId(const RawEvent &ev)
    {
        if (ev.id.present)
            return ev.id.text;
        if (ev.id2Global.present)
            return ev.id2Global.text;
        if (!ev.id2Local.present)
            return {};
        idText.assign("local\x1f");
        idText.append(ev.id2Local.text);
        return idText;
    }

    Status parseEvent(od::object &obj, std::int64_t offset);
    void addBoundFlow(const RawEvent &ev, const ChunkEvent &slice, std::int64_t offset);
    void addMetadata(const RawEvent &ev, std::int64_t offset);
    void addCounter(const RawEvent &ev, std::int64_t ts, std::int64_t offset);
    void parseFallback(const Chunk &chunk, std::size_t k);
    Status parseOne(std::string_view text, std::int64_t offset);
};

ChunkParser::ChunkParser()
    : m_impl(std::make_unique<Impl>())
{
}

ChunkParser::~ChunkParser() = default;

Status ChunkParser::Impl::parseEvent(od::object &obj, std::int64_t offset)
{
    RawEvent ev;
    extras.clear();
    for (auto fieldResult : obj) {
        od::field field;
        if (std::move(fieldResult).get(field))
            return Status::JsonError;
        const char *rawKey = field.key().raw(); // unescaped_key() consumes the key
        std::string_view key;
        if (field.unescaped_key().get(key))
            return Status::JsonError;
        od::value v = field.value();
        Scalar *target = nullptr;
        if (key.size() <= 4) {
            if (key == "ph")
                target = &ev.ph;
            else if (key == "name")
                target = &ev.name;
            else if (key == "cat")
                target = &ev.cat;
            else if (key == "pid")
                target = &ev.pid;
            else if (key == "tid")
                target = &ev.tid;
            else if (key == "ts")
                target = &ev.ts;
            else if (key == "dur")
                target = &ev.dur;
            else if (key == "id")
                target = &ev.id;
            else if (key == "bp")
                target = &ev.bp;
            else if (key == "s")
                target = &ev.scope;
            else if (key == "args") {
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
        }
        if (!target) {
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
                    Scalar *t = k == "local" ? &ev.id2Local
                        : k == "global"      ? &ev.id2Global
                                             : nullptr;
                    if (t && readScalar(iv, *t) != simdjson::SUCCESS)
                        return Status::JsonError;
                }
                continue;
            }
            if (key == "bind_id")
                target = &ev.bindId;
            else if (key == "flow_in")
                target = &ev.flowIn;
            else if (key == "flow_out")
                target = &ev.flowOut;
            else if (key != "args") {
                // Unknown (tts, tdur, sf, ...): kept as an arg, raw.
                std::string_view raw;
                if (rawValue(v, raw) != simdjson::SUCCESS)
                    return Status::JsonError;
                extras.emplace_back(escapedKey(rawKey), raw);
                continue;
            }
        }
        if (target && readScalar(v, *target) != simdjson::SUCCESS)
            return Status::JsonError;
    }

    // Events are committed only from here on, so a JSON error above adds nothing.
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
        addMetadata(ev, offset);
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
        addCounter(ev, *ts, offset);
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

    bool wantArgs = settings->keepArgs;
    if (phase != 'E' && phase != 'e') {
        EventFields fields;
        fields.phase = out.phase;
        fields.category = ev.cat.text;
        fields.name = ev.name.text;
        fields.processId = pid;
        fields.threadId = tid;
        fields.args = ev.args;
        const EventClass cls = settings->dialect->classifyEvent(fields);
        out.category = static_cast<std::uint8_t>(cls.category);
        if (cls.deferred)
            out.flags |= FlagDeferred;
        wantArgs = wantArgs || cls.needArgs;
    }
    if ((ev.hasArgs || !extras.empty()) && wantArgs)
        out.args = keepArgs(withExtras(ev));
    result->events.push_back(out);
    if (ev.bindId.present && phase != 'E' && phase != 'e' && out.phase != 'i')
        addBoundFlow(ev, out, offset);
    return Status::Ok;
}

void ChunkParser::Impl::addBoundFlow(
    const RawEvent &ev, const ChunkEvent &slice, std::int64_t offset)
{
    // v2 flows (docs/formats.md §8a): `bind_id` with `flow_out` starts a flow at this very slice,
    // `flow_in` ends one there, both is a step. Ids are their own namespace, whatever `cat`.
    const bool in = truthy(ev.flowIn);
    const bool out = truthy(ev.flowOut);
    if (!in && !out) {
        result->report.add(Severity::Info, settings->file,
            "`bind_id` without `flow_in` or `flow_out` ignored", 0, offset);
        return;
    }
    ++result->counts.flowPoints;
    ChunkFlow flow;
    flow.ts = slice.ts;
    flow.offset = offset;
    flow.lane = slice.lane;
    flow.cat = result->strings.intern({});
    idText.assign("v2\x1f");
    idText.append(ev.bindId.text);
    flow.idTag = ChunkFlow::OtherId;
    flow.idLow = result->ids.intern(idText).value();
    flow.phase = in && out ? 't' : out ? 's' : 'f';
    flow.bindEnclosing = true;
    flow.bindDur = slice.phase == 'X' ? slice.dur : -1;
    result->flows.push_back(flow);
}

void ChunkParser::Impl::addMetadata(const RawEvent &ev, std::int64_t offset)
{
    const std::string_view what = ev.name.text;
    ChunkMeta meta;
    if (what == "process_name")
        meta.kind = ChunkMeta::Kind::ProcessName;
    else if (what == "process_labels")
        meta.kind = ChunkMeta::Kind::ProcessLabels;
    else if (what == "process_sort_index")
        meta.kind = ChunkMeta::Kind::ProcessSort;
    else if (what == "thread_name")
        meta.kind = ChunkMeta::Kind::ThreadName;
    else if (what == "thread_sort_index")
        meta.kind = ChunkMeta::Kind::ThreadSort;
    else
        return; // other metadata (process_uptime_seconds, ...) is not needed
    if (!ev.hasArgs) {
        result->report.add(Severity::Warning, settings->file,
            "metadata event `" + std::string(what) + "` without `args` ignored", 0, offset);
        return;
    }
    od::document doc;
    const std::size_t capacity = static_cast<std::size_t>(bufferEnd - ev.args.data());
    od::object args;
    if (argsParser.iterate(ev.args.data(), ev.args.size(), capacity).get(doc)
        || doc.get_object().get(args)) {
        result->report.add(
            Severity::Warning, settings->file, "metadata `args` unreadable", 0, offset);
        return;
    }
    for (auto fieldResult : args) {
        od::field field;
        std::string_view key;
        if (std::move(fieldResult).get(field) || field.unescaped_key().get(key))
            break;
        od::value v = field.value();
        Scalar s;
        if (readScalar(v, s) != simdjson::SUCCESS)
            break;
        if (key == "name" || key == "labels") {
            meta.text = result->strings.intern(s.text);
        } else if (key == "sort_index") {
            auto n = util::parseInt(s.text);
            if (!n) {
                // In int range only: a cast of a double beyond int64 is undefined.
                if (auto d = util::parseDouble(s.text); d && std::abs(*d) < 9.0e18)
                    n = static_cast<std::int64_t>(*d);
            }
            meta.sortIndex = n.value_or(0);
        }
    }
    const bool needsText = meta.kind == ChunkMeta::Kind::ProcessName
        || meta.kind == ChunkMeta::Kind::ProcessLabels || meta.kind == ChunkMeta::Kind::ThreadName;
    if (needsText && !meta.text.isValid()) {
        result->report.add(Severity::Warning, settings->file,
            "metadata event `" + std::string(what) + "` without a `name`/`labels` arg ignored", 0,
            offset);
        return;
    }
    meta.pid = result->strings.intern(ev.pid.text);
    meta.tid = result->strings.intern(ev.tid.present ? ev.tid.text : ev.pid.text);
    result->metas.push_back(meta);
}

void ChunkParser::Impl::addCounter(const RawEvent &ev, std::int64_t ts, std::int64_t offset)
{
    if (!ev.hasArgs) {
        result->report.add(
            Severity::Warning, settings->file, "counter event without `args` ignored", 0, offset);
        return;
    }
    od::document doc;
    const std::size_t capacity = static_cast<std::size_t>(bufferEnd - ev.args.data());
    od::object args;
    if (argsParser.iterate(ev.args.data(), ev.args.size(), capacity).get(doc)
        || doc.get_object().get(args)) {
        result->report.add(
            Severity::Warning, settings->file, "counter `args` unreadable", 0, offset);
        return;
    }
    const StringId pid = result->strings.intern(ev.pid.text);
    const StringId name = result->strings.intern(ev.name.text);
    for (auto fieldResult : args) {
        od::field field;
        std::string_view key;
        if (std::move(fieldResult).get(field) || field.unescaped_key().get(key))
            break;
        od::value v = field.value();
        const StringId keyId = result->strings.intern(key);
        Scalar s;
        if (readScalar(v, s) != simdjson::SUCCESS)
            break;
        auto value = s.badType ? std::nullopt : util::parseDouble(s.text);
        if (!value) {
            result->report.add(Severity::Warning, settings->file,
                "counter value is not a number (point dropped)", 0, offset);
            continue;
        }
        ++result->counts.counterPoints;
        result->counters.push_back({ts, *value, pid, name, keyId});
    }
}

Status ChunkParser::Impl::parseOne(std::string_view text, std::int64_t offset)
{
    eventBuffer.assign(text);
    eventBuffer.append(simdjson::SIMDJSON_PADDING, ' ');
    bufferEnd = eventBuffer.data() + eventBuffer.size();
    od::document doc;
    od::object obj;
    if (parser.iterate(eventBuffer.data(), text.size(), eventBuffer.size()).get(doc)
        || doc.get_object().get(obj))
        return Status::JsonError;
    return parseEvent(obj, offset);
}

void ChunkParser::Impl::parseFallback(const Chunk &chunk, std::size_t k)
{
    for (; k < chunk.events.size(); ++k) {
        const auto [begin, end] = chunk.events[k];
        const std::string_view text(chunk.text.data() + begin, end - begin);
        const auto offset = static_cast<std::int64_t>(chunk.fileOffset + begin - 1);
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
    ChunkResult result;
    result.index = chunk.index;
    Impl &d = *m_impl;
    d.settings = &settings;
    d.result = &result;
    d.laneIndex.clear();
    d.hasLast = false;
    std::size_t k = 0;
    if (!chunk.dirty) {
        d.bufferEnd = chunk.text.data() + chunk.text.size();
        od::document doc;
        od::array array;
        if (d.parser.iterate(chunk.text.data(), chunk.jsonSize, chunk.text.size()).get(doc)
                == simdjson::SUCCESS
            && doc.get_array().get(array) == simdjson::SUCCESS) {
            for (auto element : array) {
                od::object obj;
                if (k >= chunk.events.size() || element.get_object().get(obj))
                    break;
                const auto offset =
                    static_cast<std::int64_t>(chunk.fileOffset + chunk.events[k].first - 1);
                if (d.parseEvent(obj, offset) == Status::JsonError)
                    break;
                ++k;
            }
        }
    }
    if (k < chunk.events.size())
        d.parseFallback(chunk, k);
    d.result = nullptr;
    return result;
}

} // namespace stepscope::import::chrometrace

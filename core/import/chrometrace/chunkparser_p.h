// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// The chunk parser's state, shared by chunkparser.cpp (slices, the fast and fallback paths)
// and chunkrecords.cpp (flows bound to slices, metadata, counters). Private to the parser.

#include "chunk.h"
#include "jsonfields.h"
#include "lenientjson.h"
#include "tracereader.h"
#include "util/decimal.h"
#include "util/saturate.h"

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
using namespace fields;

struct ChunkParser::Impl
{
    od::parser parser;
    od::parser argsParser;
    std::string eventBuffer; // padded copy of one event for the fallback path
    std::string minified;
    std::string staged; // what Dialect::stageArgs wrote
    std::string merged; // args plus the event's unknown fields
    std::string idText; // async / flow id built from id2 or bind_id
    Extras extras; ///< the event's fields the reader does not use
    std::vector<ArgMember> argMembers; ///< readPlainEvent's list of the args' members
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

    /// A time field (`ts`/`dur`) as exact ns; nullopt (with a diagnostic) when bad. Times
    /// beyond ±2^61 ns (73 years) are dropped too, so that ts + dur and the shift to the
    /// trace's origin stay inside int64.
    std::optional<std::int64_t> time(const Scalar &s, const char *field, std::int64_t offset)
    {
        if (s.badType) {
            skip(offset,
                std::string("event dropped: `") + field + "` must be a number, got " + typeWord(s));
            return std::nullopt;
        }
        auto ns = util::parseMicrosToNanos(s.text);
        if ((ns && (*ns > util::MaxFileTimeNs || *ns < -util::MaxFileTimeNs))
            || (!ns && util::parseDouble(s.text))) {
            skip(offset,
                std::string("event dropped: `") + field + "` is beyond 2^61 ns (73 years) ("
                    + std::string(s.text.substr(0, 40)) + " us)");
            return std::nullopt;
        }
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

    /// Keeps an event's args. On demand, the id numbers the event's record (`offset`, the
    /// event's) and the text is staged beside it only when `text`; else the id is the text's.
    model::ArgsId keepArgs(std::string_view raw, std::int64_t offset, bool text, bool json = true)
    {
        if (settings->argsOnDemand) {
            const auto id = static_cast<std::uint32_t>(result->argsOffsets.size());
            result->argsOffsets.push_back(static_cast<std::uint64_t>(offset));
            if (text) {
                result->stagedAt.push_back(id);
                addText(raw, json);
            }
            return model::ArgsId(id);
        }
        if (!text)
            return result->args.add(std::string_view());
        return addText(raw, json);
    }

    /// Stages `raw`, minified when `json`.
    model::ArgsId addText(std::string_view raw, bool json)
    {
        if (!json)
            return result->args.add(raw);
        minified.resize(raw.size());
        std::size_t len = 0;
        if (simdjson::minify(raw.data(), raw.size(), minified.data(), len) != simdjson::SUCCESS)
            return result->args.add(raw);
        return result->args.add(std::string_view(minified.data(), len));
    }

    void encodeFlowId(std::string_view id, ChunkFlow &flow)
    {
        bool digits = !id.empty() && id.size() <= 19; // below 10^19: fits 64 bits
        for (std::size_t i = 0; digits && i < id.size(); ++i)
            digits = id[i] >= '0' && id[i] <= '9';
        if (!digits) {
            flow.idTag = ChunkFlow::OtherId;
            flow.idLow = result->ids.intern(id).value();
            return;
        }
        std::uint64_t v = 0;
        for (char c : id)
            v = v * 10 + static_cast<std::uint64_t>(c - '0');
        flow.idLow = v;
        flow.idTag = static_cast<std::uint8_t>(id.size());
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

    /// Reads the fields of one event; adds nothing to the result.
    Status readEvent(od::object &obj, RawEvent &ev);
    /// Adds what was read: an event, flow, counter, metadata or a diagnostic. `textEnd`: the
    /// end of the padded text that the event's views point into (a counter's and a metadata
    /// event's args are parsed again there, in place).
    Status commitEvent(const RawEvent &ev, std::int64_t offset, const char *textEnd);
    void addBoundFlow(const RawEvent &ev, const ChunkEvent &slice, std::int64_t offset);
    void addMetadata(const RawEvent &ev, std::int64_t offset, const char *textEnd);
    void addCounter(const RawEvent &ev, std::int64_t ts, std::int64_t offset, const char *textEnd);
    /// Events [k, stop) of the chunk one by one, each read leniently when it is not strict.
    void parseFallback(const Chunk &chunk, std::size_t k, std::size_t stop);
    Status parseOne(std::string_view text, std::int64_t offset);
    /// Events from `from` on, in one simdjson pass over the chunk; returns the first event
    /// it could not read (the chunk's event count when it read them all).
    std::size_t parseArray(const Chunk &chunk, std::size_t from);
};

} // namespace stepscope::import::chrometrace

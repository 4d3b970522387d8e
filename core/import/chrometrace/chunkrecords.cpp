// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The records of a chunk that are not slices: v2 flows bound to a slice, metadata (process
// and thread names, sort indices) and counter samples.
#include "chunkparser_p.h"

namespace stepscope::import::chrometrace {

using model::Severity;
using model::StringId;
using namespace fields;

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

void ChunkParser::Impl::addMetadata(const RawEvent &ev, std::int64_t offset, const char *textEnd)
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
    const std::size_t capacity = static_cast<std::size_t>(textEnd - ev.args.data());
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

void ChunkParser::Impl::addCounter(
    const RawEvent &ev, std::int64_t ts, std::int64_t offset, const char *textEnd)
{
    if (!ev.hasArgs) {
        result->report.add(
            Severity::Warning, settings->file, "counter event without `args` ignored", 0, offset);
        return;
    }
    od::document doc;
    const std::size_t capacity = static_cast<std::size_t>(textEnd - ev.args.data());
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

} // namespace stepscope::import::chrometrace

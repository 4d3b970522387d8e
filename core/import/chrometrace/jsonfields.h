// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Internal to the chunk parser (one translation unit includes it): the fields of one event
// as simdjson On-Demand hands them over, and the small helpers that read them.

#include <simdjson.h>

#include <string_view>
#include <utility>
#include <vector>

namespace stepscope::import::chrometrace::fields {

namespace od = simdjson::ondemand;

enum class Status { Ok, Skipped, JsonError };

/// A scalar field as text: numbers as their raw token, strings unescaped (the file's bytes
/// where there was nothing to unescape).
struct Scalar
{
    std::string_view text;
    bool present = false;
    bool isString = false;
    bool badType = false; ///< object, array, bool or null where a number/string was expected
};

/// The fields of one event that the reader uses, gathered in any key order.
struct RawEvent
{
    Scalar ph, name, cat, pid, tid, ts, dur, id, bp, scope, bindId, flowIn, flowOut;
    Scalar id2Local, id2Global; ///< `id2: {"local": ...}` / `{"global": ...}`
    std::string_view args;
    bool hasArgs = false;
    /// readPlainEvent listed every member of `args` (no object inside it): argInts may read
    /// the list instead of the text.
    bool flatArgs = false;
};

/// Fields of an event the reader does not use (tts, tdur, sf, ...): the key as written and
/// the value's raw JSON. Kept as args.
using Extras = std::vector<std::pair<std::string_view, std::string_view>>;

/// The scalar field of the event that `key` names (the key as written, or unescaped); null
/// for `args`, `id2` and keys the reader does not use.
inline Scalar *scalarField(RawEvent &ev, std::string_view key)
{
    if (key.size() <= 4) {
        if (key == "ph")
            return &ev.ph;
        if (key == "name")
            return &ev.name;
        if (key == "cat")
            return &ev.cat;
        if (key == "pid")
            return &ev.pid;
        if (key == "tid")
            return &ev.tid;
        if (key == "ts")
            return &ev.ts;
        if (key == "dur")
            return &ev.dur;
        if (key == "id")
            return &ev.id;
        if (key == "bp")
            return &ev.bp;
        if (key == "s")
            return &ev.scope;
        return nullptr;
    }
    if (key == "bind_id")
        return &ev.bindId;
    if (key == "flow_in")
        return &ev.flowIn;
    if (key == "flow_out")
        return &ev.flowOut;
    return nullptr;
}

inline bool truthy(const Scalar &s)
{
    return s.present && (s.text == "true" || (!s.isString && !s.badType && s.text != "0"));
}

inline std::string_view trimRight(std::string_view s)
{
    while (
        !s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\r' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

inline simdjson::error_code readScalar(od::value &v, Scalar &out)
{
    out.present = true;
    od::json_type type;
    if (auto e = v.type().get(type))
        return e;
    switch (type) {
    case od::json_type::string: {
        out.isString = true;
        // Without a backslash the text between the quotes is the value: no copy, no unescape.
        const std::string_view raw = trimRight(v.raw_json_token());
        if (raw.size() >= 2 && raw.back() == '"' && raw.find('\\') == std::string_view::npos) {
            out.text = raw.substr(1, raw.size() - 2);
            return simdjson::SUCCESS;
        }
        return v.get(out.text);
    }
    case od::json_type::number:
    case od::json_type::boolean:
    case od::json_type::null: {
        out.text = trimRight(v.raw_json_token());
        out.badType = type != od::json_type::number;
        return simdjson::SUCCESS;
    }
    case od::json_type::object: {
        od::object o;
        std::string_view raw;
        out.badType = true;
        if (auto e = v.get_object().get(o))
            return e;
        auto e = o.raw_json().get(raw);
        out.text = raw;
        return e;
    }
    case od::json_type::array: {
        od::array a;
        std::string_view raw;
        out.badType = true;
        if (auto e = v.get_array().get(a))
            return e;
        auto e = a.raw_json().get(raw);
        out.text = raw;
        return e;
    }
    }
    return simdjson::SUCCESS;
}

/// A field's key as written (still escaped, without its quotes).
inline std::string_view escapedKey(const char *begin)
{
    const char *p = begin;
    while (*p != '"') {
        if (*p == '\\')
            ++p;
        ++p;
    }
    return std::string_view(begin, static_cast<std::size_t>(p - begin));
}

/// The JSON text of any value, as written.
inline simdjson::error_code rawValue(od::value &v, std::string_view &out)
{
    od::json_type type;
    if (auto e = v.type().get(type))
        return e;
    if (type == od::json_type::object) {
        od::object o;
        if (auto e = v.get_object().get(o))
            return e;
        return o.raw_json().get(out);
    }
    if (type == od::json_type::array) {
        od::array a;
        if (auto e = v.get_array().get(a))
            return e;
        return a.raw_json().get(out);
    }
    out = trimRight(v.raw_json_token());
    return simdjson::SUCCESS;
}

inline const char *typeWord(const Scalar &s)
{
    if (s.text.empty())
        return "an empty value";
    switch (s.text.front()) {
    case '{':
        return "an object";
    case '[':
        return "an array";
    case 't':
    case 'f':
        return "a boolean";
    case 'n':
        return "null";
    default:
        return s.isString ? "a string" : "a value";
    }
}

} // namespace stepscope::import::chrometrace::fields

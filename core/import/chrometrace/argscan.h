// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace stepscope::import::chrometrace {

/// The integer value of a top-level `"key": 123` (or `"key": "123"`) in an event's args JSON
/// text (compact or pretty), without building a DOM: dialects read a few keys (correlation,
/// External id, the `[memory]` fields) of hundreds of thousands of events. Nothing when the
/// key is absent or its value is not an integer (`12.5`, `1e3`, `"x"`).
std::optional<std::int64_t> argInt(std::string_view argsJson, std::string_view key);

/// argInt of several keys in one pass over the text: `values[i] = argInt(argsJson, keys[i])`
/// for i < count.
void argInts(std::string_view argsJson, const std::string_view *keys,
    std::optional<std::int64_t> *values, std::size_t count);

/// A member of an args object with no object inside it: its key and its value as written
/// (a string with its quotes), in file order (readPlainEvent lists them).
struct ArgMember
{
    std::string_view key;
    std::string_view value;
};

/// argInts of `argsJson`, read from `members` when they are given (the members of that args
/// object, which holds no object): the same values, without a scan of the text for every key.
void argInts(std::string_view argsJson, const std::vector<ArgMember> *members,
    const std::string_view *keys, std::optional<std::int64_t> *values, std::size_t count);

} // namespace stepscope::import::chrometrace

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "ids.h"

#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace stepscope::model {

/// Interns strings: each distinct string is stored once and named by a StringId.
///
/// Invariants: ids are dense (0..size()-1) in order of first insertion; a returned
/// string_view stays valid for the table's lifetime (storage never moves: a deque of
/// strings); id 0 is always the empty string. Not thread-safe: parallel importers intern
/// into their own table and merge() with a remapping table.
class StringTable
{
public:
    StringTable();
    StringTable(const StringTable &) = delete;
    StringTable &operator=(const StringTable &) = delete;
    StringTable(StringTable &&) noexcept = default;
    StringTable &operator=(StringTable &&) noexcept = default;

    StringId intern(std::string_view s);
    /// The id of s if interned, else an invalid id.
    StringId find(std::string_view s) const;
    std::string_view view(StringId id) const;
    std::size_t size() const { return m_strings.size(); }

    /// Interns every string of other; result[i] is this table's id for other's id i.
    std::vector<StringId> merge(const StringTable &other);

    static constexpr StringId Empty = StringId(0);

private:
    std::deque<std::string> m_strings;
    std::unordered_map<std::string_view, StringId> m_index;
};

} // namespace stepscope::model

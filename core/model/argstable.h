// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "ids.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope::model {

/// Cold per-event data: each event's `args` object kept as compact JSON text in one arena.
///
/// Invariants: ArgsId values are dense in order of add(). A view() stays valid until the next
/// add() (the arena may grow); a loaded Trace never adds, so its views live as long as it.
class ArgsTable
{
public:
    ArgsId add(std::string_view json);
    std::string_view view(ArgsId id) const;
    std::size_t size() const { return m_offsets.size(); }
    std::size_t memoryBytes() const;
    /// Appends other's entries; result[i] is this table's id for other's id i.
    std::vector<ArgsId> merge(const ArgsTable &other);

private:
    std::string m_text;
    std::vector<std::uint64_t> m_offsets; // begin of entry i; entry ends at the next begin
};

} // namespace stepscope::model

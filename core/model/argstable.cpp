// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "argstable.h"

#include <cassert>

namespace stepscope::model {

ArgsId ArgsTable::add(std::string_view json)
{
    const auto id = ArgsId(static_cast<std::uint32_t>(m_offsets.size()));
    m_offsets.push_back(m_text.size());
    m_text.append(json);
    return id;
}

std::string_view ArgsTable::view(ArgsId id) const
{
    if (!id.isValid())
        return {};
    assert(id.value() < m_offsets.size());
    const std::uint64_t begin = m_offsets[id.value()];
    const std::uint64_t end =
        id.value() + 1 < m_offsets.size() ? m_offsets[id.value() + 1] : m_text.size();
    return std::string_view(m_text).substr(begin, end - begin);
}

std::size_t ArgsTable::memoryBytes() const
{
    return m_text.capacity() + m_offsets.capacity() * sizeof(std::uint64_t);
}

std::vector<ArgsId> ArgsTable::merge(const ArgsTable &other)
{
    std::vector<ArgsId> map;
    map.reserve(other.size());
    for (std::size_t i = 0; i < other.size(); ++i)
        map.push_back(add(other.view(ArgsId(static_cast<std::uint32_t>(i)))));
    return map;
}

} // namespace stepscope::model

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "stringtable.h"

#include <cassert>

namespace stepscope::model {

StringTable::StringTable()
{
    intern(std::string_view());
}

StringId StringTable::intern(std::string_view s)
{
    if (auto it = m_index.find(s); it != m_index.end())
        return it->second;
    const auto id = StringId(static_cast<std::uint32_t>(m_strings.size()));
    const std::string &stored = m_strings.emplace_back(s);
    m_index.emplace(std::string_view(stored), id);
    return id;
}

StringId StringTable::find(std::string_view s) const
{
    auto it = m_index.find(s);
    return it == m_index.end() ? StringId() : it->second;
}

std::string_view StringTable::view(StringId id) const
{
    assert(id.isValid() && id.value() < m_strings.size());
    return m_strings[id.value()];
}

std::vector<StringId> StringTable::merge(const StringTable &other)
{
    std::vector<StringId> map;
    map.reserve(other.size());
    for (const std::string &s : other.m_strings)
        map.push_back(intern(s));
    return map;
}

} // namespace stepscope::model

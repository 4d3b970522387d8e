// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "idstrings.h"

#include "tablescan.h"

namespace stepscope::import::sqlite {

std::size_t IdStrings::load(const Database &db, const ImportContext &ctx, std::string_view table,
    std::string_view idColumn, std::string_view textColumn, TablePresence presence)
{
    TableScan scan(db, ctx, table, {{idColumn}, {textColumn}}, {}, presence);
    while (scan.next()) {
        const std::optional<std::int64_t> id = scan.needInt(0);
        if (id)
            m_text.emplace(*id, std::string(scan.text(1)));
    }
    return m_text.size();
}

std::string_view IdStrings::text(std::int64_t id, std::string_view fallback) const
{
    const auto it = m_text.find(id);
    return it != m_text.end() ? std::string_view(it->second) : fallback;
}

model::StringId IdStrings::intern(std::int64_t id, model::TraceBuilder &out)
{
    const auto it = m_interned.find(id);
    if (it != m_interned.end())
        return it->second;
    const auto t = m_text.find(id);
    if (t == m_text.end())
        ++m_unknown;
    const model::StringId s =
        t != m_text.end() ? out.intern(t->second) : out.intern(std::to_string(id));
    m_interned.emplace(id, s);
    return s;
}

} // namespace stepscope::import::sqlite

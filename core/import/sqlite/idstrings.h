// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// The string tables of SQLite exports: names are stored once in an (id, text) table
// (Ascend `STRING_IDS`, Nsight `StringIds`, the `ENUM_*` tables) and rows carry the id.
//
// The table is read once; each id is interned into the trace's string table the first time
// a row uses it, so a million rows naming the same kernel cost one lookup each and one
// string. The same text can have two ids (Ascend: `GE` = 386 and 536870912): interning by
// text makes them one StringId.

#include "model/tracebuilder.h"
#include "tablescan.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

namespace stepscope::import::sqlite {

class IdStrings
{
public:
    /// Reads `SELECT <idColumn>, <textColumn> FROM <table>`; a missing table (Required) or a
    /// damaged one is diagnosed by TableScan. Returns the number of strings read.
    std::size_t load(const Database &db, const ImportContext &ctx, std::string_view table,
        std::string_view idColumn = "id", std::string_view textColumn = "value",
        TablePresence presence = TablePresence::Required);

    bool contains(std::int64_t id) const { return m_text.count(id) != 0; }
    bool has(std::int64_t id) const { return m_text.count(id) != 0; }
    /// The text of id, or `fallback` when the id is unknown.
    std::string_view text(std::int64_t id, std::string_view fallback = {}) const;
    /// The interned text of id; an unknown id interns as its decimal number.
    model::StringId intern(std::int64_t id, model::TraceBuilder &out);
    std::size_t size() const { return m_text.size(); }
    /// How many distinct ids intern() was given that the table lacks (named by the number).
    std::size_t unknownInterned() const { return m_unknown; }

private:
    std::size_t m_unknown = 0;
    std::unordered_map<std::int64_t, std::string> m_text;
    std::unordered_map<std::int64_t, model::StringId> m_interned;
};

} // namespace stepscope::import::sqlite

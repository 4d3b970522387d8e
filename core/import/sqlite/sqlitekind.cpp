// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "sqlitekind.h"

#include "database.h"

namespace stepscope::import::sqlite {

SqliteKind sniffSqlite(const std::filesystem::path &file)
{
    if (!Database::hasSqliteHeader(file))
        return SqliteKind::None;
    std::string error;
    const std::optional<Database> db = Database::open(file, &error);
    if (!db)
        return SqliteKind::None;
    // META_DATA_EXPORT names the product; an export that lacks it (older nsys, or a table
    // dropped) is still one by its activity and target tables (docs/formats.md §12: a missing
    // table is "not collected"). StringIds is not needed: without it the reader shows ids
    // for names and says so, rather than the file being no profile at all.
    bool nsys = db->hasTable("META_DATA_EXPORT");
    for (const std::string &table : db->tables())
        nsys = nsys || table.rfind("CUPTI_ACTIVITY_KIND_", 0) == 0
            || table.rfind("TARGET_INFO_", 0) == 0;
    if (nsys)
        return SqliteKind::Nsys;
    if (db->hasTable("TASK") || (db->hasTable("STRING_IDS") && db->hasTable("META_DATA"))
        || db->hasTable("PYTORCH_API"))
        return SqliteKind::AscendProfiler;
    if (db->hasTable("StepTraceTime") || db->hasTable("CommAnalyzerTime"))
        return SqliteKind::AscendAnalysis;
    if (db->hasTable("ClusterStepTraceTime") || db->hasTable("ClusterTimeSummary")
        || db->hasTable("ClusterCommunicationTime") || db->hasTable("CommunicationGroupMapping"))
        return SqliteKind::AscendCluster;
    return SqliteKind::None;
}

} // namespace stepscope::import::sqlite

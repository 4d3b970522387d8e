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
    if (db->hasTable("StringIds") && db->hasTable("META_DATA_EXPORT"))
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

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "folderfiles.h"

#include "import/detect/dirwalk.h"
#include "import/detect/filetext.h"
#include "import/detect/kinetorank.h"
#include "import/sqlite/database.h"

#include <algorithm>
#include <regex>
#include <set>

namespace stepscope::import::detect {

namespace fs = std::filesystem;

namespace {

bool isSqliteName(const std::string &name)
{
    return endsWith(name, ".db") || endsWith(name, ".sqlite") || endsWith(name, ".sqlite3");
}

/// Whether a file of a name we do not know may still hold a profile, from its first bytes:
/// an SQLite header, or JSON text (an object or an array; gzip is inflated by readFileText).
/// Two small reads, cheap enough for every file of a folder.
bool mayHoldProfile(const fs::path &file)
{
    if (sqlite::Database::hasSqliteHeader(file))
        return true;
    const auto head = readFileText(file, 256);
    if (!head)
        return false;
    const auto first = head->find_first_not_of(" \t\r\n\xef\xbb\xbf");
    return first != std::string::npos && ((*head)[first] == '{' || (*head)[first] == '[');
}

/// Sorts a file found in a folder into the Kineto / memory / xplane / SQLite lists.
void classifyFile(const fs::path &file, Detection &d)
{
    const std::string name = file.filename().string();
    if (!endsWith(name, ".xplane.pb") && !isJsonName(name) && !isSqliteName(name)
        && !mayHoldProfile(file))
        return;
    addFile(file, sniffFile(file), d);
}

void scanFiles(const fs::path &dir, int depth, Detection &d, std::set<util::FileId> &seen)
{
    for (const fs::path &p : listDir(dir)) {
        if (isFile(p)) {
            if (firstVisit(p, seen))
                classifyFile(p, d);
        } else if (isDir(p)) {
            if (depth > 0 && firstVisit(p, seen))
                scanFiles(p, depth - 1, d, seen);
        } else if (isJsonName(p.filename().string()) || endsWith(p.filename().string(), ".pb")
            || endsWith(p.filename().string(), ".db")) {
            std::string why = util::whyNotRegular(p);
            if (!why.empty() && firstVisit(p, seen))
                d.skipped.emplace_back(p, std::move(why));
        }
    }
}

} // namespace

std::string kinetoWorker(const fs::path &file)
{
    std::string name = file.filename().string();
    for (std::string_view suffix : {".gz", ".json", ".trace", ".pt"}) {
        if (endsWith(name, suffix))
            name.resize(name.size() - suffix.size());
    }
    // Kineto names files <worker>.<milliseconds>.pt.trace.json: drop the timestamp.
    static const std::regex re(R"((.+)\.\d{10,}$)");
    std::smatch m;
    if (std::regex_match(name, m, re))
        return m[1].str();
    return name;
}

bool isJsonName(const std::string &name)
{
    return endsWith(name, ".json") || endsWith(name, ".json.gz") || endsWith(name, ".raw.gz")
        || endsWith(name, ".raw");
}

Format addFile(const fs::path &file, FileKind kind, Detection &d)
{
    switch (kind) {
    case FileKind::AscendDb:
        d.ascendDbFiles.push_back(file);
        return Format::AscendDb;
    case FileKind::NsysSqlite:
        d.nsysFiles.push_back(file);
        return Format::NsysSqlite;
    case FileKind::KinetoTrace: {
        const auto head = readFileText(file, SniffBytes * 16);
        d.kinetoFiles.push_back(
            KinetoFile {file, kinetoRank(head.value_or("")), kinetoWorker(file)});
        return Format::Kineto;
    }
    case FileKind::TorchMemoryRaw:
    case FileKind::TorchMemoryTimeline:
        d.memoryFiles.push_back(file);
        return Format::TorchMemory;
    case FileKind::ChromeArray:
        d.kinetoFiles.push_back(KinetoFile {file, -1, kinetoWorker(file), true});
        return Format::ChromeTrace;
    case FileKind::JaxXplane:
        d.xplaneFiles.push_back(file);
        return Format::JaxXplane;
    case FileKind::AscendClusterDb:
    case FileKind::Unknown:
        break;
    }
    return Format::Unknown;
}

void scanFiles(const fs::path &dir, int depth, Detection &d)
{
    std::set<util::FileId> seen;
    firstVisit(dir, seen);
    scanFiles(dir, depth, d, seen);
}

void settleGeneric(Detection &d)
{
    const bool anyKineto = std::any_of(
        d.kinetoFiles.begin(), d.kinetoFiles.end(), [](const KinetoFile &f) { return !f.generic; });
    if (anyKineto)
        d.kinetoFiles.erase(std::remove_if(d.kinetoFiles.begin(), d.kinetoFiles.end(),
                                [](const KinetoFile &f) { return f.generic; }),
            d.kinetoFiles.end());
}

} // namespace stepscope::import::detect

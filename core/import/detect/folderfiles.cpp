// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "folderfiles.h"

#include "import/detect/ascendfiles.h"
#include "import/detect/dirwalk.h"
#include "import/detect/filetext.h"
#include "import/detect/kinetorank.h"
#include "import/sqlite/database.h"

#include <algorithm>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

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

/// Sorts a file found in a folder into the Kineto / memory / xplane / SQLite lists; a JSON
/// file with nothing in it goes to the skipped ones.
void classifyFile(const fs::path &file, Detection &d)
{
    const std::string name = file.filename().string();
    if (!endsWith(name, ".xplane.pb") && !isJsonName(name) && !isSqliteName(name)
        && !mayHoldProfile(file))
        return;
    if (addFile(file, sniffFile(file), d) != Format::Unknown || !isJsonName(name))
        return;
    // A trace the profiler never finished writing: left out, but said (its rank is missing).
    if (std::string why = emptyFileReason(file); !why.empty())
        d.skipped.emplace_back(file, std::move(why));
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
        d.kinetoFiles.push_back(
            KinetoFile {file, -1, kinetoWorker(file), true, looksLikeAscendByContent(file)});
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

void noteProfilesBelow(const fs::path &dir, int depth, Detection &d)
{
    Detection below;
    std::set<util::FileId> seen;
    firstVisit(dir, seen);
    for (const fs::path &p : listDir(dir))
        if (isDir(p) && firstVisit(p, seen))
            scanFiles(p, depth - 1, below, seen);
    std::vector<fs::path> files;
    for (const KinetoFile &f : below.kinetoFiles)
        files.push_back(f.path);
    for (const auto *list :
        {&below.memoryFiles, &below.nsysFiles, &below.ascendDbFiles, &below.xplaneFiles})
        files.insert(files.end(), list->begin(), list->end());
    for (const fs::path &f : files)
        d.skipped.emplace_back(f,
            "a profile in a folder below the one opened, whose own profile files were read "
            "first: not read. Open its folder on its own to see it");
}

namespace {

/// A hash of the first and last 64 KiB as stored (gzip is not inflated: copies are alike on
/// disk): what tells two traces of one size apart, read once per file and kept small (a
/// thousand files of one size keep a thousand hashes).
std::size_t endsHash(const fs::path &file, std::uint64_t size)
{
    constexpr std::uint64_t Span = 64u << 10;
    std::ifstream in(file, std::ios::binary);
    const auto n = static_cast<std::size_t>(std::min(size, Span));
    return std::hash<std::string> {}(
        readBytesAt(in, 0, n) + readBytesAt(in, size > Span ? size - Span : 0, n));
}

/// Every byte alike, compared a MiB at a time (only for files whose ends are alike).
bool sameBytes(const fs::path &a, const fs::path &b, std::uint64_t size)
{
    constexpr std::size_t Block = 1u << 20;
    std::ifstream ia(a, std::ios::binary);
    std::ifstream ib(b, std::ios::binary);
    for (std::uint64_t at = 0; at < size; at += Block) {
        const std::string x = readBytesAt(ia, at, Block);
        if (x.empty() || x != readBytesAt(ib, at, Block))
            return false;
    }
    return true;
}

} // namespace

void dropCopies(Detection &d)
{
    // The path lists and the word that names a copy: a log copied beside itself (train.log
    // and "train (1).log") would read as two runs, an export as two ranks of one figure.
    const std::pair<std::vector<fs::path> *, const char *> lists[] = {
        {&d.memoryFiles, "trace"},
        {&d.logFiles, "log"},
        {&d.nsysFiles, "export"},
        {&d.ascendDbFiles, "export"},
    };
    std::map<std::uint64_t, std::size_t> sizes; // how many files have each size
    for (const KinetoFile &f : d.kinetoFiles)
        ++sizes[fileSize(f.path)];
    for (const auto &[list, word] : lists)
        for (const fs::path &f : *list)
            ++sizes[fileSize(f)];
    // Files kept, by size and ends; only files that share their size with another are read.
    std::map<std::pair<std::uint64_t, std::size_t>, std::vector<fs::path>> kept;
    const auto isCopy = [&](const fs::path &file, const char *word) {
        const std::uint64_t size = fileSize(file);
        if (size == 0 || sizes[size] < 2)
            return false;
        std::vector<fs::path> &alike = kept[{size, endsHash(file, size)}];
        for (const fs::path &earlier : alike) {
            if (sameBytes(earlier, file, size)) {
                d.skipped.emplace_back(file,
                    "the same bytes as " + earlier.filename().string() + " (a copy of that " + word
                        + "): read once");
                return true;
            }
        }
        alike.push_back(file);
        return false;
    };
    d.kinetoFiles.erase(std::remove_if(d.kinetoFiles.begin(), d.kinetoFiles.end(),
                            [&](const KinetoFile &f) { return isCopy(f.path, "trace"); }),
        d.kinetoFiles.end());
    for (const auto &[list, word] : lists) {
        const char *w = word;
        list->erase(std::remove_if(list->begin(), list->end(),
                        [&](const fs::path &f) { return isCopy(f, w); }),
            list->end());
    }
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

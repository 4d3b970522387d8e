// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Golden dumps: for every sample folder tests/data/<family>/<sample>/ that loads, what
// `stepscope dump PATH --json` prints (import::dumpJson of import::loadPath, as the CLI does),
// reduced to a compact, stable digest, is stored in tests/data/golden/<family>/<sample>.json
// and compared here. Full dumps are megabytes; the digest keeps every top-level entry and
// every small array, and replaces an array of more than KeepWhole elements by its count, its
// first and last Ends elements and an FNV-1a hash of the whole array's compact JSON, so a
// change to any event, flow or counter point still changes the file.
//
// The normal test run only compares. To regenerate after an intended change, run
// `cmake --build build/ci --target update-goldens` (or tests/tools/update_goldens.sh) and
// review the diff of tests/data/golden/ (docs/architecture.md, "Golden dumps").
#include "import/dump.h"
#include "import/loader.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace stepscope::import {
namespace {

namespace fs = std::filesystem;

const fs::path Data = fs::path(STEPSCOPE_TEST_DATA);
constexpr std::size_t KeepWhole = 8;
constexpr std::size_t Ends = 2;

std::string fnv1a(const std::string &text)
{
    std::uint64_t h = 1469598103934665603ULL;
    for (const char c : text) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ULL;
    }
    std::ostringstream out;
    out << std::hex << std::setw(16) << std::setfill('0') << h;
    return out.str();
}

/// Paths of this checkout never reach a golden: they differ from one clone to the next.
void stripDataPath(nlohmann::json &j)
{
    if (j.is_string()) {
        std::string s = j.get<std::string>();
        const std::string root = Data.generic_string();
        for (std::size_t p = s.find(root); p != std::string::npos; p = s.find(root))
            s.replace(p, root.size(), "<data>");
        j = s;
    } else if (j.is_array() || j.is_object()) {
        for (auto &v : j)
            stripDataPath(v);
    }
}

nlohmann::json digest(const nlohmann::json &j, bool topLevel)
{
    if (j.is_object()) {
        nlohmann::json out = nlohmann::json::object();
        for (auto it = j.begin(); it != j.end(); ++it) {
            // The top-level lists of named things (tracks, counters, steps, memory,
            // diagnostics, training logs) keep every element; what is inside them is
            // digested. Flows, a list of index pairs, are digested like any long array.
            const nlohmann::json &v = it.value();
            if (topLevel && v.is_array() && it.key() != "flows") {
                nlohmann::json kept = nlohmann::json::array();
                for (const auto &e : v)
                    kept.push_back(digest(e, false));
                out[it.key()] = std::move(kept);
            } else {
                out[it.key()] = digest(v, false);
            }
        }
        return out;
    }
    if (!j.is_array() || j.size() <= KeepWhole) {
        if (!j.is_array())
            return j;
        nlohmann::json out = nlohmann::json::array();
        for (const auto &e : j)
            out.push_back(digest(e, false));
        return out;
    }
    nlohmann::json first = nlohmann::json::array();
    nlohmann::json last = nlohmann::json::array();
    for (std::size_t i = 0; i < Ends; ++i) {
        first.push_back(digest(j[i], false));
        last.push_back(digest(j[j.size() - Ends + i], false));
    }
    return {{"count", j.size()}, {"first", std::move(first)}, {"last", std::move(last)},
        {"fnv1a", fnv1a(j.dump())}};
}

struct Sample
{
    std::string family;
    std::string name;
    fs::path dir() const { return Data / family / name; }
    fs::path golden() const { return Data / "golden" / family / (name + ".json"); }
};

/// gtest prints a failing parameter with this, not as raw bytes.
void PrintTo(const Sample &s, std::ostream *os)
{
    *os << s.family << '/' << s.name;
}

std::vector<Sample> samples()
{
    std::vector<Sample> out;
    if (!fs::is_directory(Data))
        return out;
    for (const auto &family : fs::directory_iterator(Data)) {
        if (!family.is_directory() || family.path().filename() == "golden")
            continue;
        for (const auto &sample : fs::directory_iterator(family.path())) {
            if (sample.is_directory())
                out.push_back(
                    {family.path().filename().string(), sample.path().filename().string()});
        }
    }
    std::sort(out.begin(), out.end(), [](const Sample &a, const Sample &b) {
        return a.family != b.family ? a.family < b.family : a.name < b.name;
    });
    return out;
}

std::string readFile(const fs::path &p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

bool updating()
{
    const char *v = std::getenv("STEPSCOPE_UPDATE_GOLDENS");
    return v && std::string(v) == "1";
}

class GoldenDump : public ::testing::TestWithParam<Sample>
{
};

TEST_P(GoldenDump, MatchesTheStoredFile)
{
    const Sample &sample = GetParam();
    util::Progress progress;
    const LoadResult result = loadPath(sample.dir(), progress);
    ASSERT_TRUE(result.session);
    if (!result.session->hasContent()) {
        // Nothing the CLI would dump (`dump` exits with "nothing loaded"): no golden either.
        EXPECT_FALSE(fs::exists(sample.golden())) << sample.golden() << " is stale";
        return;
    }
    nlohmann::json full = dumpJson(*result.session);
    stripDataPath(full);
    const std::string text = digest(full, true).dump(1) + "\n";
    if (updating()) {
        fs::create_directories(sample.golden().parent_path());
        std::ofstream(sample.golden(), std::ios::binary) << text;
        std::cout << "wrote " << sample.golden() << '\n';
        return;
    }
    ASSERT_TRUE(fs::exists(sample.golden()))
        << sample.golden() << " is missing: run the update-goldens target and review it";
    const std::string stored = readFile(sample.golden());
    if (stored == text)
        return;
    // Say where they part, not megabytes of text.
    std::istringstream a(stored), b(text);
    std::string la, lb;
    int line = 1;
    while (std::getline(a, la) && std::getline(b, lb) && la == lb)
        ++line;
    ADD_FAILURE() << sample.golden() << " differs from the current dump at line " << line
                  << ":\n  stored:  " << la << "\n  current: " << lb
                  << "\nIf the change is intended, run the update-goldens target and review "
                     "the diff.";
}

INSTANTIATE_TEST_SUITE_P(Samples, GoldenDump, ::testing::ValuesIn(samples()),
    [](const ::testing::TestParamInfo<Sample> &param) {
        std::string n = param.param.family + "_" + param.param.name;
        for (char &c : n) {
            if (!std::isalnum(static_cast<unsigned char>(c)))
                c = '_';
        }
        return n;
    });

TEST(GoldenDumpFiles, EachBelongsToASample)
{
    const fs::path root = Data / "golden";
    ASSERT_TRUE(fs::is_directory(root));
    std::size_t files = 0;
    for (const auto &f : fs::recursive_directory_iterator(root)) {
        if (!f.is_regular_file() || f.path().extension() != ".json")
            continue;
        ++files;
        const fs::path rel = fs::relative(f.path(), root);
        EXPECT_TRUE(fs::is_directory(Data / rel.parent_path() / rel.stem()))
            << f.path() << " has no sample folder";
    }
    EXPECT_GT(files, 0u);
}

} // namespace
} // namespace stepscope::import

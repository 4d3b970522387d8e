// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "memorybudget.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>

namespace stepscope::import {

namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t KiB = 1024;
constexpr std::uint64_t MiB = KiB * 1024;

/// Measured with `stepscope-bench budget PATH --analyse` on generated inputs (tests/tools/
/// measure_load_memory.sh; docs/robustness.md "Memory budget" has the runs): the load's peak
/// and resident bytes over its input bytes, the analysis included, rounded up so that the
/// estimate refuses a load that would not fit rather than one that would, and asks at most
/// 1.5 times the peak. JSON traces were measured at 200 MiB, 1 GiB and 20 GiB (their transient
/// grows slower than the file) and as 1 000 rank files of 3 MiB, whose analysis keeps as much
/// again as the load: the resident factor is that folder's 0.23x, rounded up.
constexpr std::uint64_t Unbounded = std::numeric_limits<std::uint64_t>::max();
constexpr InputFactor JsonTraceFactor {0.25, 0.35, 100 * MiB, 0.18};
constexpr InputFactor TableFactor {0.9, 1.6, Unbounded, 0};
constexpr InputFactor AscendDbFactor {1.3, 0.7, Unbounded, 0};
constexpr InputFactor NsysExportFactor {3.5, 1.5, Unbounded, 0};

std::uint64_t scaled(std::uint64_t bytes, double factor)
{
    const double v = static_cast<double>(bytes) * factor;
    if (!(v < 1.8e19))
        return std::numeric_limits<std::uint64_t>::max();
    return static_cast<std::uint64_t>(v);
}

std::uint64_t satAddU(std::uint64_t a, std::uint64_t b)
{
    std::uint64_t r = 0;
    return __builtin_add_overflow(a, b, &r) ? std::numeric_limits<std::uint64_t>::max() : r;
}

/// The number after `key` in a /proc-style "key value [kB]" file, in bytes.
std::optional<std::uint64_t> readKiBField(const fs::path &file, std::string_view key)
{
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
        if (line.compare(0, key.size(), key) != 0)
            continue;
        std::istringstream fields(line.substr(key.size()));
        std::uint64_t kib = 0;
        if (fields >> kib)
            return kib * KiB;
    }
    return std::nullopt;
}

/// The first number in a one-line cgroup file ("max" and anything else: nullopt).
std::optional<std::uint64_t> readNumberFile(const fs::path &file)
{
    std::ifstream in(file);
    std::string word;
    if (!(in >> word) || word.empty() || word.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    try {
        return std::stoull(word);
    } catch (...) {
        return std::nullopt;
    }
}

/// memory.max − memory.current of this process's cgroup (v2), when it has a limit.
std::optional<std::uint64_t> cgroupHeadroom()
{
    std::ifstream in("/proc/self/cgroup");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("0::", 0) != 0)
            continue;
        const fs::path dir = fs::path("/sys/fs/cgroup") / fs::path(line.substr(3)).relative_path();
        const auto max = readNumberFile(dir / "memory.max");
        if (!max)
            return std::nullopt;
        const std::uint64_t current = readNumberFile(dir / "memory.current").value_or(0);
        return *max > current ? *max - current : 0;
    }
    return std::nullopt;
}

std::string oneDecimal(double v)
{
    std::array<char, 32> buf {};
    std::snprintf(buf.data(), buf.size(), v < 10 ? "%.1f" : "%.0f", v);
    return buf.data();
}

} // namespace

InputFactor inputFactor(InputKind kind)
{
    switch (kind) {
    case InputKind::JsonTrace:
    case InputKind::GzipJson:
        return JsonTraceFactor;
    case InputKind::Table:
        return TableFactor;
    case InputKind::AscendDb:
        return AscendDbFactor;
    case InputKind::NsysExport:
        return NsysExportFactor;
    }
    return JsonTraceFactor;
}

std::uint64_t InputFactor::residentBytes(std::uint64_t bytes) const
{
    return scaled(bytes, resident);
}

std::uint64_t InputFactor::transientBytes(std::uint64_t bytes) const
{
    const std::uint64_t small = scaled(bytes, transient);
    if (transientBase == Unbounded)
        return small;
    return std::min(small, satAddU(transientBase, scaled(bytes, transientLarge)));
}

RankNeed rankNeedOf(std::int32_t rank, const std::vector<PlannedInput> &inputs)
{
    RankNeed need;
    need.rank = rank;
    for (const PlannedInput &in : inputs) {
        const InputFactor f = inputFactor(in.kind);
        need.inputBytes = satAddU(need.inputBytes, in.bytes);
        const std::uint64_t resident = f.residentBytes(in.bytes);
        need.residentBytes = satAddU(need.residentBytes, resident);
        need.peakBytes = satAddU(need.peakBytes, satAddU(resident, f.transientBytes(in.bytes)));
    }
    return need;
}

std::uint64_t sharedNeedOf(const std::vector<PlannedInput> &inputs)
{
    return rankNeedOf(-1, inputs).peakBytes;
}

std::uint64_t MemoryBudget::needBytes(const std::vector<std::size_t> &index) const
{
    std::uint64_t total = sharedBytes;
    std::vector<std::uint64_t> transients;
    transients.reserve(index.size());
    for (std::size_t i : index) {
        if (i >= ranks.size())
            continue;
        total = satAddU(total, ranks[i].residentBytes);
        transients.push_back(
            ranks[i].peakBytes - std::min(ranks[i].peakBytes, ranks[i].residentBytes));
    }
    const std::size_t at = std::min<std::size_t>(std::max(1u, concurrency), transients.size());
    std::partial_sort(transients.begin(), transients.begin() + static_cast<std::ptrdiff_t>(at),
        transients.end(), std::greater<>());
    for (std::size_t i = 0; i < at; ++i)
        total = satAddU(total, transients[i]);
    return total;
}

std::uint64_t MemoryBudget::needBytesOfFirst(std::size_t count) const
{
    std::vector<std::size_t> first(std::min(count, ranks.size()));
    for (std::size_t i = 0; i < first.size(); ++i)
        first[i] = i;
    return needBytes(first);
}

std::uint64_t MemoryBudget::needBytes() const
{
    return needBytesOfFirst(ranks.size());
}

std::vector<std::int32_t> MemoryBudget::ranksThatFit() const
{
    // Adding a rank never lowers the need, so the longest fitting prefix is found by
    // bisection: O(n log n) need sums, fine for 100 000 ranks.
    std::size_t lo = 0;
    std::size_t hi = ranks.size();
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo + 1) / 2;
        if (needBytesOfFirst(mid) <= availableBytes)
            lo = mid;
        else
            hi = mid - 1;
    }
    std::vector<std::int32_t> out;
    out.reserve(lo);
    for (std::size_t i = 0; i < lo; ++i)
        out.push_back(ranks[i].rank);
    return out;
}

std::optional<std::uint64_t> availableMemoryBytes()
{
    if (const char *pretend = std::getenv("STEPSCOPE_AVAILABLE_MEMORY")) {
        const std::string_view v(pretend);
        if (!v.empty() && v.size() < 20
            && v.find_first_not_of("0123456789") == std::string_view::npos)
            return std::stoull(std::string(v));
    }
    std::optional<std::uint64_t> available = readKiBField("/proc/meminfo", "MemAvailable:");
    if (const auto headroom = cgroupHeadroom())
        available = available ? std::min(*available, *headroom) : *headroom;
    return available;
}

std::uint64_t gzipInflatedEstimate(const fs::path &file)
{
    std::error_code ec;
    const std::uint64_t size = fs::file_size(file, ec);
    if (ec)
        return 0;
    const std::uint64_t guess = scaled(size, 10.0);
    if (size < 18 || size >= 400 * MiB)
        return guess;
    std::ifstream in(file, std::ios::binary);
    in.seekg(-4, std::ios::end);
    std::array<unsigned char, 4> t {};
    if (!in.read(reinterpret_cast<char *>(t.data()), 4))
        return guess;
    const std::uint64_t isize = std::uint64_t {t[0]} | (std::uint64_t {t[1]} << 8)
        | (std::uint64_t {t[2]} << 16) | (std::uint64_t {t[3]} << 24);
    return isize >= size ? isize : guess;
}

std::string formatBudgetBytes(std::uint64_t bytes)
{
    static constexpr std::array<const char *, 5> Units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    if (bytes < KiB)
        return std::to_string(bytes) + " B";
    double v = static_cast<double>(bytes) / KiB;
    std::size_t unit = 0;
    while (v >= 1024 && unit + 1 < Units.size()) {
        v /= 1024;
        ++unit;
    }
    return oneDecimal(v) + " " + Units[unit];
}

std::string formatRankList(std::vector<std::int32_t> ranks)
{
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    std::string out;
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
            ++j;
        if (!out.empty())
            out += ',';
        out += std::to_string(ranks[i]);
        if (j >= i + 2)
            out += '-' + std::to_string(ranks[j]);
        else if (j == i + 1)
            out += ',' + std::to_string(ranks[j]);
        i = j + 1;
    }
    return out;
}

std::optional<std::vector<std::int32_t>> parseRankList(std::string_view text)
{
    constexpr std::size_t MaxRanks = 1'000'000;
    const auto trim = [](std::string_view s) {
        while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
            s.remove_prefix(1);
        while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
            s.remove_suffix(1);
        return s;
    };
    const auto number = [](std::string_view s) -> std::optional<std::int32_t> {
        if (s.empty() || s.size() > 10 || s.find_first_not_of("0123456789") != std::string::npos)
            return std::nullopt;
        const std::uint64_t v = std::stoull(std::string(s));
        if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()))
            return std::nullopt;
        return static_cast<std::int32_t>(v);
    };
    std::vector<std::int32_t> out;
    while (true) {
        const std::size_t comma = text.find(',');
        const std::string_view part = trim(text.substr(0, comma));
        const std::size_t dash = part.find('-');
        const auto first = number(trim(part.substr(0, dash)));
        const auto last =
            dash == std::string_view::npos ? first : number(trim(part.substr(dash + 1)));
        if (!first || !last || *last < *first
            || static_cast<std::uint64_t>(*last - *first) >= MaxRanks - out.size())
            return std::nullopt;
        for (std::int32_t r = *first;; ++r) {
            out.push_back(r);
            if (r == *last)
                break;
        }
        if (comma == std::string_view::npos)
            break;
        text.remove_prefix(comma + 1);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::string memoryBudgetMessage(const MemoryBudget &budget)
{
    const std::uint64_t need = budget.needBytes();
    std::string out = "loading this profile needs about " + formatBudgetBytes(need)
        + " of memory (estimated from the sizes of the files it reads); "
        + formatBudgetBytes(budget.availableBytes) + " is available. ";
    const std::vector<std::int32_t> fit = budget.ranksThatFit();
    if (budget.ranks.size() > 1 && !fit.empty()) {
        const bool one = fit.size() == 1;
        out += std::to_string(fit.size()) + " of the " + std::to_string(budget.ranks.size())
            + (one ? " ranks fits (about " : " ranks fit (about ")
            + formatBudgetBytes(budget.needBytesOfFirst(fit.size()))
            + (one ? "): open it with --ranks " : "): open them with --ranks ")
            + formatRankList(fit)
            + " (the window offers them too), or load everything anyway with "
              "--no-memory-check";
    } else if (budget.ranks.size() > 1) {
        out += "Not even rank " + std::to_string(budget.ranks.front().rank) + " alone fits (about "
            + formatBudgetBytes(budget.ranks.front().peakBytes)
            + "); load anyway with --no-memory-check";
    } else if (budget.ranks.size() == 1) {
        out += "It is a single rank; load it anyway with --no-memory-check, or free memory "
               "first";
    } else {
        out += "It has no ranks to choose from (training logs or a cluster summary alone); load "
               "it anyway with --no-memory-check, or free memory first";
    }
    return out;
}

} // namespace stepscope::import

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

/// The memory budget of a load (docs/robustness.md "Memory budget"): before any reader runs,
/// the loader estimates the memory each planned rank needs from the sizes of the files it will
/// read times the bytes per input byte measured for their kind, and compares the sum with the
/// memory the machine has available. A load that would not fit is refused with the figures and
/// the ranks that do fit, instead of being killed by the kernel half-way.
namespace stepscope::import {

/// What a file holds, for the bytes a load takes per byte of it.
enum class InputKind {
    JsonTrace, ///< a Chrome/Kineto/Ascend trace-event JSON file (or any JSON table)
    GzipJson, ///< the same, gzip-compressed: measured against its inflated size
    Table, ///< CSV and text files (Ascend and MindSpore tables, training logs)
    AscendDb, ///< an Ascend DB export (SQLite: ascend_pytorch_profiler_*.db, analysis.db)
    NsysExport, ///< an Nsight Systems SQLite export
};

/// The bytes a load of `bytes` input bytes of one kind takes (the constants in
/// memorybudget.cpp, measured with `stepscope-bench budget`, tests/tools/
/// measure_load_memory.sh): `resident` per input byte once loaded, and while it is read a
/// transient of `transient` per byte, at most `transientBase + transientLarge` per byte (a
/// reader's buffers stop growing with the file).
struct InputFactor
{
    double resident = 0;
    double transient = 0;
    std::uint64_t transientBase = 0;
    double transientLarge = 0;

    std::uint64_t residentBytes(std::uint64_t bytes) const;
    std::uint64_t transientBytes(std::uint64_t bytes) const;
};
InputFactor inputFactor(InputKind kind);

/// One file a planned rank reads.
struct PlannedInput
{
    std::filesystem::path path;
    InputKind kind = InputKind::JsonTrace;
    /// The bytes counted: the file's size, the inflated size for gzip, a share of a file that
    /// several ranks read (an Nsight export split by process).
    std::uint64_t bytes = 0;
};

/// The estimate of one planned rank.
struct RankNeed
{
    /// The rank as planned, before any reader ran: the number from the file or folder
    /// (distributedInfo, profiler_info_N.json, a file-name number), else the first number no
    /// other planned rank has, in load order. `--ranks` selects by this number.
    std::int32_t rank = -1;
    std::uint64_t inputBytes = 0;
    std::uint64_t residentBytes = 0;
    std::uint64_t peakBytes = 0;
};

/// The estimate of one rank that reads `inputs`.
RankNeed rankNeedOf(std::int32_t rank, const std::vector<PlannedInput> &inputs);
/// The peak bytes of files every rank shares (the cluster summary, training logs).
std::uint64_t sharedNeedOf(const std::vector<PlannedInput> &inputs);

/// The whole estimate: every planned rank, the files shared by all (cluster summary, training
/// logs), the available memory and how many ranks are read at once.
struct MemoryBudget
{
    std::vector<RankNeed> ranks; ///< in load order
    std::uint64_t sharedBytes = 0; ///< resident bytes of the cluster summary and training logs
    std::uint64_t availableBytes = 0;
    unsigned concurrency = 1; ///< ranks read at once (the loader's workers)

    /// Peak bytes of loading the ranks of `index` (positions in `ranks`): every rank's
    /// resident bytes plus the largest `concurrency` transients (peak - resident), plus the
    /// shared files.
    std::uint64_t needBytes(const std::vector<std::size_t> &index) const;
    /// Peak bytes of loading the first `count` ranks.
    std::uint64_t needBytesOfFirst(std::size_t count) const;
    /// Peak bytes of loading every rank.
    std::uint64_t needBytes() const;
    bool fits() const { return needBytes() <= availableBytes; }
    /// The longest run of ranks from the first, in load order, whose need fits; empty when not
    /// even the first rank fits.
    std::vector<std::int32_t> ranksThatFit() const;
};

/// The memory this process may still take: Linux's MemAvailable (/proc/meminfo), lowered to
/// what the cgroup's memory.max leaves when there is one; nullopt when neither can be read.
/// STEPSCOPE_AVAILABLE_MEMORY=BYTES in the environment stands in for the machine (to try a
/// budget, and for the tests).
std::optional<std::uint64_t> availableMemoryBytes();

/// The inflated size of a gzip file from its trailer (ISIZE, the size modulo 2^32), or an
/// estimate of 10 times the compressed size when the trailer cannot be trusted (a file of
/// 400 MiB or more, or an ISIZE below the compressed size: the inflated size may wrap).
std::uint64_t gzipInflatedEstimate(const std::filesystem::path &file);

/// "loading this profile needs about 31 GiB of memory ...; 23 GiB is available. ..." with the
/// ranks that fit and the options that load them (--ranks, --no-memory-check).
std::string memoryBudgetMessage(const MemoryBudget &budget);

/// "0-5,8,10-11": ascending, ranges of three or more consecutive ranks joined.
std::string formatRankList(std::vector<std::int32_t> ranks);
/// Parses "0-5,8,10-11" (blanks allowed around the parts); nullopt for anything else (an
/// empty list, a reversed range, a number beyond int32, more than 1 000 000 ranks).
std::optional<std::vector<std::int32_t>> parseRankList(std::string_view text);

/// Bytes as "31 GiB", "9.5 GiB", "512 MiB", "12 B" (one decimal below 10).
std::string formatBudgetBytes(std::uint64_t bytes);

} // namespace stepscope::import

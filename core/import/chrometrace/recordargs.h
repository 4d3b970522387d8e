// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "model/argstable.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope::import::chrometrace {

class ChunkParser;
class GzipIndex;

/// Args on demand for one Chrome-trace file: an event's args are re-read from the file at the
/// event's record offset (the byte offset of its `{` in the file, or in the decompressed
/// stream of a gzip file through its GzipIndex) and parsed by the same chunk parser the load
/// used, so they come back exactly as a resident copy would have held them.
///
/// The file's size and modification time are taken when the load opens it; a read after
/// either changed, or after the file vanished, fails with a sentence saying so.
class RecordArgs final : public model::ArgsSource
{
public:
    RecordArgs(
        std::filesystem::path file, std::string name, std::shared_ptr<const GzipIndex> index);
    ~RecordArgs() override;

    bool read(std::uint64_t offset, std::string &json, std::string &error) const override;
    /// Checks the file once and reads the records in windows of WindowBytes: the collective
    /// table asks for every communication kernel of a rank at once.
    void readMany(
        const std::vector<std::uint64_t> &offsets, std::vector<std::string> &json) const override;
    std::size_t memoryBytes() const override;

    /// What readMany reads at a time (a single read() reads 4 KiB).
    static constexpr std::size_t WindowBytes = 256u << 10;

    /// Largest event read back (larger ones fail with a message).
    static constexpr std::size_t MaxEventBytes = 256u << 20;

private:
    bool unchanged(std::string &error) const;
    bool bytesAt(
        std::uint64_t offset, std::size_t size, std::string &bytes, std::string &error) const;
    /// The event whose record starts at `offset`, from the bytes read last when they hold it
    /// whole, else read from there (`firstRead` bytes first). Caller holds m_mutex.
    bool eventAt(std::uint64_t offset, std::size_t firstRead, std::string_view &event,
        std::string &error) const;
    /// Its args, parsed as the load parsed them. Caller holds m_mutex.
    bool argsOf(
        std::uint64_t offset, std::string_view event, std::string &json, std::string &error) const;

    std::filesystem::path m_file;
    std::string m_name;
    std::shared_ptr<const GzipIndex> m_index;
    std::uintmax_t m_size = 0;
    std::filesystem::file_time_type m_time;
    bool m_stamped = false;
    mutable std::mutex m_mutex;
    mutable std::unique_ptr<ChunkParser> m_parser;
    mutable std::string m_bytes; ///< the bytes read last, from m_bytesAt
    mutable std::uint64_t m_bytesAt = 0;
    mutable std::FILE *m_handle = nullptr; ///< the plain file, open after the first read
};

} // namespace stepscope::import::chrometrace

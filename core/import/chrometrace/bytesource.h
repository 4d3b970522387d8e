// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

namespace stepscope::import::chrometrace {

class GzipIndex;

/// Sequential bytes of a file, decompressed on the fly when it is gzip (detected by its
/// magic bytes, not its name). Never holds more than one read block in memory; offsets are
/// 64-bit so files over 4 GiB work.
///
/// Errors (unreadable file, corrupt or truncated gzip) end the stream early: read() returns
/// 0 and error() describes what happened and where. Not thread-safe.
class ByteSource
{
public:
    virtual ~ByteSource() = default;

    /// Opens `file`; nullptr with `error` set when it cannot be opened. With a `seekSpan`
    /// (bytes of output between checkpoints, GzipIndex::SpanBytes for loads), a gzip file
    /// builds a GzipIndex while it is read (seekIndex()).
    static std::unique_ptr<ByteSource> open(
        const std::filesystem::path &file, std::string &error, std::uint64_t seekSpan = 0);

    /// Fills up to `size` bytes; 0 at the end of the stream (or on error).
    virtual std::size_t read(char *buffer, std::size_t size) = 0;
    /// Bytes of the file on disk consumed so far (for progress).
    virtual std::uint64_t fileBytesConsumed() const = 0;
    /// Empty unless the stream ended because of an error.
    const std::string &error() const { return m_error; }
    /// Empty unless something odd but harmless was seen (gzip expanding like a bomb).
    const std::string &warning() const { return m_warning; }
    virtual bool compressed() const = 0;
    /// The seek index built so far (gzip opened with seekIndex), else null.
    virtual std::shared_ptr<const GzipIndex> seekIndex() const { return nullptr; }

    /// Plain files: the bytes at `offset`, without moving the stream (pread, so any thread
    /// may call it while another reads). Returns the bytes read, fewer only at the end of the
    /// file; -1 on a read error or when the source has no random access (gzip).
    virtual std::int64_t readAt(
        std::uint64_t /*offset*/, char * /*buffer*/, std::size_t /*size*/) const
    {
        return -1;
    }
    /// Plain files: the stream goes on from `offset`. False when it cannot (gzip).
    virtual bool seek(std::uint64_t /*offset*/) { return false; }

    /// Decompression-ratio guard: past WarnInflatedBytes of output at more than WarnRatio
    /// times the compressed input, warning() says so (memory stays bounded, reading goes on);
    /// past StopInflatedBytes at more than StopRatio, the stream ends with an error. Real
    /// traces compress 5-30x; deflate cannot exceed about 1032x.
    static constexpr std::uint64_t WarnInflatedBytes = 64ull << 20;
    static constexpr std::uint64_t WarnRatio = 100;
    static constexpr std::uint64_t StopInflatedBytes = 16ull << 30;
    static constexpr std::uint64_t StopRatio = 1000;

protected:
    std::string m_error;
    std::string m_warning;
};

} // namespace stepscope::import::chrometrace

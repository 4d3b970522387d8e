// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

struct z_stream_s;

namespace stepscope::import::chrometrace {

/// Random access into a gzip file's decompressed stream (zlib's zran.c approach), so that an
/// event's args can be read back by its offset without a decompressed copy on disk.
///
/// While the file is inflated once for the load (ByteSource built with a seek index), every
/// SpanBytes of output a checkpoint is taken at the next deflate block boundary: the
/// compressed and decompressed offsets, the bit position and the last 32 KiB of output (the
/// window inflate needs to go on from there). A read inflates from the checkpoint at or before
/// the offset, at most SpanBytes plus what was asked; the last span read is cached, so reads
/// close together (one track's events in order) inflate it once. Resident: at most 32 KiB per
/// span (0.4 % of the decompressed size; windows are kept deflated, a few KiB for JSON text)
/// plus the cached span.
class GzipIndex
{
public:
    static constexpr std::uint64_t SpanBytes = 8u << 20;

    explicit GzipIndex(std::uint64_t span = SpanBytes)
        : m_span(span)
    {
    }

    /// Called by the inflating ByteSource after each inflate(Z_BLOCK) step.
    void afterInflate(z_stream_s &stream, std::uint64_t out, std::uint64_t in);
    /// A gzip member starts at compressed byte `in` (decompressed `out`).
    void memberStart(std::uint64_t out, std::uint64_t in);

    /// Up to `size` bytes of the decompressed stream from `offset` into `bytes` (fewer at
    /// its end). False with `error` set when the file cannot be read or inflated.
    bool read(const std::filesystem::path &file, std::uint64_t offset, std::size_t size,
        std::string &bytes, std::string &error) const;

    std::size_t memoryBytes() const;
    std::size_t checkpoints() const { return m_points.size(); }

private:
    struct Point
    {
        std::uint64_t out = 0;
        std::uint64_t in = 0;
        int bits = 0;
        bool member = false; ///< a gzip member's header starts at `in` (no window needed)
        std::uint32_t windowBytes = 0;
        std::string window; ///< the window, deflated (JSON text: 4-8x smaller; filler: ~0)
    };
    bool inflateSpan(const std::filesystem::path &file, const Point &from, std::uint64_t until,
        std::string &error) const;

    std::uint64_t m_span = SpanBytes;
    std::vector<Point> m_points;
    mutable std::mutex m_mutex;
    mutable std::uint64_t m_cacheOffset = 0;
    mutable std::string m_cache;
};

} // namespace stepscope::import::chrometrace

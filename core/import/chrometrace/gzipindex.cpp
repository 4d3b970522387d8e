// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "gzipindex.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <memory>

namespace stepscope::import::chrometrace {

namespace {
constexpr std::size_t WindowBytes = 32768;

struct FileCloser
{
    void operator()(std::FILE *f) const
    {
        if (f)
            std::fclose(f);
    }
};

struct InflateEnd
{
    z_stream *s = nullptr;
    ~InflateEnd()
    {
        if (s)
            inflateEnd(s);
    }
};
} // namespace

void GzipIndex::afterInflate(z_stream_s &stream, std::uint64_t out, std::uint64_t in)
{
    // At the end of a deflate block that is not the last one (bit 7 set, bit 6 clear).
    if ((stream.data_type & 128) == 0 || (stream.data_type & 64) != 0)
        return;
    if (!m_points.empty() && out - m_points.back().out < m_span)
        return;
    Point p;
    p.out = out;
    p.in = in;
    p.bits = stream.data_type & 7;
    std::string window(WindowBytes, '\0');
    uInt len = 0;
    if (inflateGetDictionary(&stream, reinterpret_cast<Bytef *>(window.data()), &len) != Z_OK)
        return;
    uLongf packed = compressBound(len);
    p.window.resize(packed);
    if (compress2(reinterpret_cast<Bytef *>(p.window.data()), &packed,
            reinterpret_cast<const Bytef *>(window.data()), len, 1)
        != Z_OK)
        return;
    p.window.resize(packed);
    p.window.shrink_to_fit();
    p.windowBytes = len;
    m_points.push_back(std::move(p));
}

void GzipIndex::memberStart(std::uint64_t out, std::uint64_t in)
{
    Point p;
    p.out = out;
    p.in = in;
    p.member = true;
    m_points.push_back(std::move(p));
}

std::size_t GzipIndex::memoryBytes() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    std::size_t bytes = m_points.capacity() * sizeof(Point) + m_cache.capacity();
    for (const Point &p : m_points)
        bytes += p.window.capacity();
    return bytes;
}

bool GzipIndex::inflateSpan(const std::filesystem::path &file, const Point &from,
    std::uint64_t until, std::string &error) const
{
    std::unique_ptr<std::FILE, FileCloser> f(std::fopen(file.c_str(), "rb"));
    if (!f) {
        error = "cannot open the file";
        return false;
    }
    z_stream s {};
    bool raw = !from.member;
    if (inflateInit2(&s, raw ? -MAX_WBITS : 16 + MAX_WBITS) != Z_OK) {
        error = "cannot initialise zlib";
        return false;
    }
    InflateEnd guard {&s};
    const std::uint64_t seek = from.in - (raw && from.bits ? 1 : 0);
    if (fseeko(f.get(), static_cast<off_t>(seek), SEEK_SET) != 0) {
        error = "cannot seek in the file";
        return false;
    }
    if (raw) {
        if (from.bits) {
            const int c = std::fgetc(f.get());
            if (c == EOF) {
                error = "the file is shorter than when it was loaded";
                return false;
            }
            inflatePrime(&s, from.bits, c >> (8 - from.bits));
        }
        std::string window(from.windowBytes, '\0');
        uLongf len = from.windowBytes;
        if (uncompress(reinterpret_cast<Bytef *>(window.data()), &len,
                reinterpret_cast<const Bytef *>(from.window.data()), from.window.size())
                != Z_OK
            || len != from.windowBytes) {
            error = "the seek index is damaged";
            return false;
        }
        inflateSetDictionary(
            &s, reinterpret_cast<const Bytef *>(window.data()), static_cast<uInt>(len));
    }
    m_cache.clear();
    m_cacheOffset = from.out;
    const std::uint64_t want = until - from.out;
    m_cache.reserve(static_cast<std::size_t>(want));
    std::vector<unsigned char> in(1 << 18);
    std::array<unsigned char, 1 << 16> out {};
    std::uint64_t skipTrailer = 0; // bytes of a member's trailer still to skip (raw mode)
    while (m_cache.size() < want) {
        if (s.avail_in == 0) {
            const std::size_t got = std::fread(in.data(), 1, in.size(), f.get());
            if (got == 0)
                break; // the end of the file: fewer bytes than asked
            s.next_in = in.data();
            s.avail_in = static_cast<uInt>(got);
        }
        if (skipTrailer > 0) {
            const auto n = static_cast<uInt>(std::min<std::uint64_t>(skipTrailer, s.avail_in));
            s.next_in += n;
            s.avail_in -= n;
            skipTrailer -= n;
            if (skipTrailer == 0) {
                raw = false;
                inflateReset2(&s, 16 + MAX_WBITS);
            }
            continue;
        }
        s.next_out = out.data();
        s.avail_out = static_cast<uInt>(out.size());
        const int rc = inflate(&s, Z_NO_FLUSH);
        m_cache.append(reinterpret_cast<const char *>(out.data()), out.size() - s.avail_out);
        if (rc == Z_STREAM_END) {
            // A further member may follow: raw inflate leaves its 8-byte trailer unread.
            if (raw)
                skipTrailer = 8;
            else
                inflateReset(&s);
        } else if (rc == Z_BUF_ERROR && s.avail_in == 0) {
            continue;
        } else if (rc != Z_OK) {
            error = std::string("corrupt gzip data (") + (s.msg ? s.msg : "zlib error") + ")";
            m_cache.clear();
            return false;
        }
    }
    return true;
}

bool GzipIndex::read(const std::filesystem::path &file, std::uint64_t offset, std::size_t size,
    std::string &bytes, std::string &error) const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    const std::uint64_t end = offset + size;
    const bool cached = offset >= m_cacheOffset && end <= m_cacheOffset + m_cache.size();
    if (!cached) {
        auto it = std::upper_bound(m_points.begin(), m_points.end(), offset,
            [](std::uint64_t o, const Point &p) { return o < p.out; });
        if (it == m_points.begin()) {
            error = "no seek point before the offset";
            return false;
        }
        const Point &from = *std::prev(it);
        // The whole span up to the next checkpoint, so neighbouring reads hit the cache.
        const std::uint64_t next = it != m_points.end() ? it->out : end;
        if (!inflateSpan(file, from, std::max(end, next), error))
            return false;
    }
    if (offset < m_cacheOffset || offset - m_cacheOffset > m_cache.size()) {
        bytes.clear();
        return true;
    }
    const auto at = static_cast<std::size_t>(offset - m_cacheOffset);
    bytes.assign(m_cache, at, std::min<std::size_t>(size, m_cache.size() - at));
    if (m_cache.capacity() > 4 * m_span + (1u << 20)) {
        // Inflated for one huge event: not kept resident.
        m_cache = std::string();
        m_cacheOffset = 0;
    }
    return true;
}

} // namespace stepscope::import::chrometrace

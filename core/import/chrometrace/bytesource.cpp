// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "bytesource.h"

#include "gzipindex.h"
#include "util/regularfile.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <sys/types.h>
#include <unistd.h>
#include <vector>

namespace stepscope::import::chrometrace {

namespace {

struct FileCloser
{
    void operator()(std::FILE *f) const
    {
        if (f)
            std::fclose(f);
    }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

class PlainSource final : public ByteSource
{
public:
    PlainSource(FilePtr file, std::string prefix)
        : m_file(std::move(file))
        , m_prefix(std::move(prefix))
    {
    }

    std::size_t read(char *buffer, std::size_t size) override
    {
        std::size_t n = 0;
        while (m_prefixPos < m_prefix.size() && n < size)
            buffer[n++] = m_prefix[m_prefixPos++];
        if (n < size) {
            const std::size_t got = std::fread(buffer + n, 1, size - n, m_file.get());
            if (got == 0 && std::ferror(m_file.get()))
                m_error = "read error after " + std::to_string(m_consumed) + " bytes";
            n += got;
        }
        m_consumed += n;
        return n;
    }
    std::uint64_t fileBytesConsumed() const override { return m_consumed; }
    bool compressed() const override { return false; }

    std::int64_t readAt(std::uint64_t offset, char *buffer, std::size_t size) const override
    {
        const int fd = fileno(m_file.get());
        std::size_t done = 0;
        while (done < size) {
            const ssize_t got =
                ::pread(fd, buffer + done, size - done, static_cast<off_t>(offset + done));
            if (got < 0 && errno == EINTR)
                continue;
            if (got < 0)
                return -1;
            if (got == 0)
                break;
            done += static_cast<std::size_t>(got);
        }
        return static_cast<std::int64_t>(done);
    }

    bool seek(std::uint64_t offset) override
    {
        if (fseeko(m_file.get(), static_cast<off_t>(offset), SEEK_SET) != 0)
            return false;
        m_prefixPos = m_prefix.size(); // the prefix is the file's first bytes: read past
        m_consumed = offset;
        return true;
    }

private:
    FilePtr m_file;
    std::string m_prefix; // bytes read to sniff the magic number
    std::size_t m_prefixPos = 0;
    std::uint64_t m_consumed = 0;
};

/// gzip through zlib's inflate, member after member (concatenated gzip is valid gzip).
class GzipSource final : public ByteSource
{
public:
    GzipSource(FilePtr file, std::string prefix, std::uint64_t seekSpan)
        : m_file(std::move(file))
        , m_in(new char[InBytes]) // not zero-filled: only what is read is touched
    {
        if (seekSpan > 0) {
            m_index = std::make_shared<GzipIndex>(seekSpan);
            m_index->memberStart(0, 0);
        }
        m_stream.zalloc = Z_NULL;
        m_stream.zfree = Z_NULL;
        m_stream.opaque = Z_NULL;
        m_stream.next_in = Z_NULL;
        m_stream.avail_in = 0;
        m_ok = inflateInit2(&m_stream, 16 + MAX_WBITS) == Z_OK;
        if (!m_ok)
            m_error = "cannot initialise zlib";
        std::copy(prefix.begin(), prefix.end(), m_in.get());
        m_stream.next_in = reinterpret_cast<Bytef *>(m_in.get());
        m_stream.avail_in = static_cast<uInt>(prefix.size());
        m_inputRead = prefix.size();
    }
    ~GzipSource() override { inflateEnd(&m_stream); }

    std::size_t read(char *buffer, std::size_t size) override
    {
        if (!m_ok || m_done)
            return 0;
        m_stream.next_out = reinterpret_cast<Bytef *>(buffer);
        m_stream.avail_out = static_cast<uInt>(size);
        while (m_stream.avail_out > 0) {
            if (m_stream.avail_in == 0) {
                const std::size_t got = std::fread(m_in.get(), 1, InBytes, m_file.get());
                if (got == 0) {
                    if (!m_memberEnded)
                        m_error = "the gzip stream is truncated after "
                            + std::to_string(m_inputRead) + " compressed bytes";
                    m_done = true;
                    break;
                }
                m_inputRead += got;
                m_stream.next_in = reinterpret_cast<Bytef *>(m_in.get());
                m_stream.avail_in = static_cast<uInt>(got);
            }
            m_memberEnded = false;
            // With a seek index, inflate stops at every deflate block boundary so that a
            // checkpoint can be taken there.
            const int rc = inflate(&m_stream, m_index ? Z_BLOCK : Z_NO_FLUSH);
            if (m_index && rc == Z_OK)
                m_index->afterInflate(
                    m_stream, m_inflated + (size - m_stream.avail_out), consumedIn());
            if (rc == Z_STREAM_END) {
                m_memberEnded = true;
                inflateReset(&m_stream); // a further member may follow
                if (m_index)
                    m_index->memberStart(m_inflated + (size - m_stream.avail_out), consumedIn());
            } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
                m_error = std::string("corrupt gzip data (")
                    + (m_stream.msg ? m_stream.msg : "zlib error") + ") near compressed byte "
                    + std::to_string(consumedIn());
                m_done = true;
                break;
            }
        }
        const std::size_t n = size - m_stream.avail_out;
        m_inflated += n;
        guardRatio();
        return n;
    }
    std::uint64_t fileBytesConsumed() const override { return consumedIn(); }
    bool compressed() const override { return true; }
    std::shared_ptr<const GzipIndex> seekIndex() const override { return m_index; }

private:
    std::uint64_t consumedIn() const { return m_inputRead - m_stream.avail_in; }

    void guardRatio()
    {
        const std::uint64_t in = std::max<std::uint64_t>(consumedIn(), 1);
        const auto mb = [](std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; };
        if (m_warning.empty() && m_inflated > WarnInflatedBytes && m_inflated / in > WarnRatio)
            m_warning = "the gzip data expands " + std::to_string(m_inflated / in) + "x ("
                + mb(m_inflated) + " from " + std::to_string(in >> 10)
                + " KiB): it holds mostly filler (a decompression bomb?); memory stays "
                  "bounded, reading on";
        if (m_inflated > StopInflatedBytes && m_inflated / in > StopRatio) {
            m_error = "decompression-ratio guard: the gzip data expands more than "
                + std::to_string(StopRatio) + "x (" + mb(m_inflated) + " from "
                + std::to_string(in >> 10) + " KiB), reading stopped";
            m_done = true;
        }
    }

    FilePtr m_file;
    static constexpr std::size_t InBytes = 1 << 20;
    std::unique_ptr<char[]> m_in;
    z_stream m_stream {};
    std::uint64_t m_inputRead = 0;
    std::uint64_t m_inflated = 0;
    bool m_ok = false;
    bool m_done = false;
    bool m_memberEnded = false;
    std::shared_ptr<GzipIndex> m_index;
};

} // namespace

std::unique_ptr<ByteSource> ByteSource::open(
    const std::filesystem::path &file, std::string &error, std::uint64_t seekSpan)
{
    error = util::whyNotRegular(file); // a FIFO or device would block or never end
    if (!error.empty())
        return nullptr;
    FilePtr f(std::fopen(file.c_str(), "rb"));
    if (!f) {
        error = "cannot open the file";
        return nullptr;
    }
    std::array<char, 2> magic {};
    const std::size_t got = std::fread(magic.data(), 1, magic.size(), f.get());
    std::string prefix(magic.data(), got);
    if (got == 2 && static_cast<unsigned char>(magic[0]) == 0x1f
        && static_cast<unsigned char>(magic[1]) == 0x8b)
        return std::make_unique<GzipSource>(std::move(f), std::move(prefix), seekSpan);
    return std::make_unique<PlainSource>(std::move(f), std::move(prefix));
}

} // namespace stepscope::import::chrometrace

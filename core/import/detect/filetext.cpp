// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "filetext.h"

#include "util/progress.h"
#include "util/regularfile.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <fstream>

namespace stepscope::import::detect {

bool isGzipFile(const std::filesystem::path &file)
{
    std::ifstream in;
    std::array<char, 2> magic {};
    if (!util::openRegular(in, file) || !in.read(magic.data(), 2))
        return false;
    return static_cast<unsigned char>(magic[0]) == 0x1f
        && static_cast<unsigned char>(magic[1]) == 0x8b;
}

std::uint64_t fileSize(const std::filesystem::path &file)
{
    std::error_code ec;
    const auto size = std::filesystem::file_size(file, ec);
    return ec ? 0 : static_cast<std::uint64_t>(size);
}

std::string readBytesAt(std::istream &in, std::uint64_t offset, std::size_t bytes)
{
    std::string out(bytes, '\0');
    in.clear();
    in.seekg(static_cast<std::streamoff>(offset));
    in.read(out.data(), static_cast<std::streamsize>(bytes));
    out.resize(static_cast<std::size_t>(std::max<std::streamsize>(in.gcount(), 0)));
    return out;
}

std::optional<std::string> readPlainFileTail(
    const std::filesystem::path &file, std::uint64_t maxBytes)
{
    std::ifstream in;
    if (!util::openRegular(in, file) || isGzipFile(file))
        return std::nullopt;
    const std::uint64_t size = fileSize(file);
    const std::uint64_t from = size > maxBytes ? size - maxBytes : 0;
    return readBytesAt(in, from, static_cast<std::size_t>(size - from));
}

std::optional<std::string> readFileText(const std::filesystem::path &file, std::uint64_t maxBytes,
    const util::Progress *progress, std::string *why)
{
    if (std::string reason = util::whyNotRegular(file); !reason.empty()) {
        if (why != nullptr)
            *why = std::move(reason);
        return std::nullopt;
    }
    constexpr std::uint64_t CancelCheckBytes = 4u << 20;
    std::uint64_t nextCheck = CancelCheckBytes;
    const auto checkCancel = [&](std::uint64_t done) {
        if (progress != nullptr && done >= nextCheck) {
            nextCheck = done + CancelCheckBytes;
            progress->checkCancel();
        }
    };
    std::string out;
    if (!isGzipFile(file)) {
        std::ifstream in(file, std::ios::binary);
        if (!in)
            return std::nullopt;
        // Read into its final size: growing by doubling copied each file's head a dozen times.
        out.reserve(static_cast<std::size_t>(std::min(maxBytes, fileSize(file))));
        std::array<char, 1 << 16> buf {};
        while (out.size() < maxBytes && in) {
            const std::uint64_t want = std::min<std::uint64_t>(buf.size(), maxBytes - out.size());
            in.read(buf.data(), static_cast<std::streamsize>(want));
            out.append(buf.data(), static_cast<std::size_t>(in.gcount()));
            checkCancel(out.size());
        }
        return out;
    }
    gzFile gz = gzopen(file.string().c_str(), "rb");
    if (gz == nullptr)
        return std::nullopt;
    std::array<char, 1 << 16> buf {};
    while (out.size() < maxBytes) {
        const std::uint64_t want = std::min<std::uint64_t>(buf.size(), maxBytes - out.size());
        const int n = gzread(gz, buf.data(), static_cast<unsigned>(want));
        if (n <= 0)
            break; // end of stream, or a corrupt/truncated stream: keep what we have
        out.append(buf.data(), static_cast<std::size_t>(n));
        try {
            checkCancel(out.size());
        } catch (...) {
            gzclose(gz);
            throw;
        }
    }
    gzclose(gz);
    return out;
}

std::string emptyFileReason(const std::filesystem::path &file)
{
    constexpr std::size_t Head = 4096;
    const auto head = readFileText(file, Head);
    if (!head)
        return {};
    const std::string gz = isGzipFile(file) ? " once inflated" : "";
    if (head->empty())
        return "the file is empty" + gz
            + " (0 bytes): a profiler stopped before it wrote its trace leaves such a file";
    if (head->size() == Head)
        return {};
    constexpr const char *Blanks = " \t\r\n";
    const auto first = head->find_first_not_of(Blanks);
    if (first == std::string::npos)
        return "the file holds only blanks" + gz;
    const auto last = head->find_last_not_of(Blanks);
    if ((*head)[first] != '[')
        return {};
    if (first == last)
        return "a trace-event array cut off before its first event: the file ends after "
            + std::to_string(head->size()) + " bytes" + gz + " (a profiler stopped while writing?)";
    if (head->find_first_not_of(Blanks, first + 1) == last && (*head)[last] == ']')
        return "a trace-event file without events (an empty array)";
    return {};
}

} // namespace stepscope::import::detect

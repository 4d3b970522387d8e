// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "packedfiles.h"

#include "filetext.h"
#include "util/text.h"

#include <fstream>
#include <string_view>
#include <system_error>

namespace fs = std::filesystem;

namespace stepscope::import::detect {

namespace {

using util::startsWith;

/// A tar archive's first header has "ustar" at byte 257 (POSIX and GNU tar).
bool isTarHeader(std::string_view head)
{
    return head.size() >= 262 && head.substr(257, 5) == "ustar";
}

} // namespace

std::string packedFileReason(const fs::path &file)
{
    std::ifstream in(file, std::ios::binary);
    if (!in)
        return {};
    const std::string head = readBytesAt(in, 0, 512);
    std::string name = file.filename().string();
    if (name.find_first_of(" '\"$`\\()&;|<>*?") != std::string::npos) // as typed in a shell
        name = "'" + name + "'";
    const auto unpack = [&](const char *what, const std::string &command) {
        return std::string(what) + ": unpack it (`" + command + " " + name
            + "`) and open the folder it holds";
    };
    const auto decompress = [&](const char *what, const std::string &command) {
        return std::string(what) + ": decompress it (`" + command + " " + name
            + "`) and open the result (StepScope reads gzip itself)";
    };
    if (startsWith(head, "PK\x03\x04") || startsWith(head, "PK\x05\x06"))
        return unpack("a zip archive", "unzip");
    if (startsWith(head, std::string_view("7z\xBC\xAF\x27\x1C", 6)))
        return unpack("a 7z archive", "7z x");
    if (isTarHeader(head))
        return unpack("a tar archive", "tar xf");
    if (startsWith(head, "\x28\xB5\x2F\xFD"))
        return decompress("compressed with zstd", "zstd -d");
    if (startsWith(head, std::string_view("\xFD\x37zXZ\x00", 6)))
        return decompress("compressed with xz", "xz -d");
    if (head.size() >= 4 && startsWith(head, "BZh") && head[3] >= '1' && head[3] <= '9')
        return decompress("compressed with bzip2", "bunzip2");
    // A pickle of protocol 2 or later opens with PROTO (0x80) and its version.
    if (head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x80 && head[1] >= 2
        && head[1] <= 5)
        return "a Python pickle, such as a PyTorch memory snapshot "
               "(torch.cuda.memory._dump_snapshot), which StepScope does not read: for memory, "
               "open a trace recorded with profile_memory=True or an export_memory_timeline "
               "export";
    if (isGzipFile(file)) {
        const auto inflated = readFileText(file, 512);
        if (inflated && isTarHeader(*inflated))
            return unpack("a gzipped tar archive", "tar xzf");
    }
    return {};
}

std::string packedFilesIn(const fs::path &dir)
{
    std::error_code ec;
    std::string firstName; // the first by name: a listing's order is the file system's
    std::string first;
    std::size_t count = 0;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (!it->is_regular_file(ec))
            continue;
        const std::string reason = packedFileReason(it->path());
        if (reason.empty())
            continue;
        ++count;
        const std::string name = it->path().filename().string();
        if (first.empty() || name < firstName) {
            firstName = name;
            first = name + " is " + reason;
        }
    }
    if (count <= 1)
        return first;
    const std::size_t more = count - 1;
    return first + " (" + std::to_string(more) + (more == 1 ? " more file" : " more files")
        + " alike)";
}

} // namespace stepscope::import::detect

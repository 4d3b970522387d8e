// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Profiles shared packed (a zip or tarball of the profiler folder, a zstd trace) and PyTorch
// memory snapshots (pickles) were "not a profile StepScope can read", with no word of why.
#include "import/detect/detect.h"
#include "import/detect/packedfiles.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace stepscope::import::detect {
namespace {

namespace fs = std::filesystem;

class DetectPacked : public ::testing::Test
{
protected:
    void SetUp() override
    {
        // One folder per test: ctest runs the tests of this file side by side.
        m_dir = fs::temp_directory_path()
            / (std::string("stepscope_detect_packed_")
                + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }

    fs::path write(const std::string &name, const std::string &bytes)
    {
        const fs::path file = m_dir / name;
        std::ofstream(file, std::ios::binary) << bytes;
        return file;
    }

    /// A tar archive's first header, naming one JSON file.
    static std::string tarHeader()
    {
        std::string header(512, '\0');
        header.replace(0, 20, "profiler/trace.json\0", 20);
        header.replace(257, 6, "ustar\0", 6);
        return header + "{\"traceEvents\": []}";
    }

    fs::path m_dir;
};

TEST_F(DetectPacked, EachPackIsNamedWithWhatToDo)
{
    const struct
    {
        const char *name;
        std::string bytes;
        const char *reason;
    } cases[] = {
        {"prof.zip", std::string("PK\x03\x04", 4) + "rest",
            "this file is a zip archive: unpack it (`unzip prof.zip`) and open the folder it "
            "holds"},
        {"prof.tar", tarHeader(), "this file is a tar archive: unpack it (`tar xf prof.tar`)"},
        {"prof.7z", std::string("7z\xBC\xAF\x27\x1C", 6) + "rest",
            "this file is a 7z archive: unpack it (`7z x prof.7z`)"},
        {"trace.json.zst", std::string("\x28\xB5\x2F\xFD", 4) + "rest",
            "this file is compressed with zstd: decompress it (`zstd -d trace.json.zst`) and "
            "open the result"},
        {"trace.json.xz",
            std::string("\xFD"
                        "7zXZ\x00",
                6)
                + "rest",
            "this file is compressed with xz: decompress it (`xz -d trace.json.xz`)"},
        {"trace.json.bz2", "BZh91AY&SY", "this file is compressed with bzip2"},
        {"my snapshot.pickle", std::string("\x80\x04\x95", 3) + "rest",
            "this file is a Python pickle, such as a PyTorch memory snapshot"},
    };
    for (const auto &c : cases) {
        const Detection d = detectPath(write(c.name, c.bytes));
        EXPECT_EQ(d.format, Format::Unknown) << c.name;
        EXPECT_EQ(d.reason.rfind(c.reason, 0), 0u) << c.name << ": " << d.reason;
    }
    // A name a shell would split is quoted in the command.
    EXPECT_NE(packedFileReason(write("my prof.zip", "PK\x03\x04")).find("`unzip 'my prof.zip'`"),
        std::string::npos);
}

TEST_F(DetectPacked, AGzippedTarballIsKnownInsideItsGzip)
{
    const fs::path file = m_dir / "prof.tar.gz";
    gzFile gz = gzopen(file.string().c_str(), "wb");
    ASSERT_NE(gz, nullptr);
    const std::string tar = tarHeader();
    ASSERT_EQ(
        gzwrite(gz, tar.data(), static_cast<unsigned>(tar.size())), static_cast<int>(tar.size()));
    gzclose(gz);
    const Detection d = detectPath(file);
    EXPECT_EQ(d.reason,
        "this file is a gzipped tar archive: unpack it (`tar xzf prof.tar.gz`) and open the "
        "folder it holds");
}

TEST_F(DetectPacked, AFolderOfPacksSaysWhichToUnpack)
{
    write("b.zip", "PK\x03\x04");
    write("a.tar", tarHeader());
    write("notes.txt", "hello");
    const Detection d = detectPath(m_dir);
    EXPECT_EQ(d.format, Format::Unknown);
    EXPECT_NE(d.reason.find("no profiler output recognised here"), std::string::npos) << d.reason;
    // The first by name, and the count of the others.
    EXPECT_NE(d.reason.find(". a.tar is a tar archive: unpack it (`tar xf a.tar`) and open the "
                            "folder it holds (1 more file alike)"),
        std::string::npos)
        << d.reason;

    // Files that are not packs say nothing more; a JSON that is no profile neither.
    EXPECT_EQ(packedFileReason(m_dir / "notes.txt"), "");
    EXPECT_EQ(packedFileReason(write("settings.json", "{\"lr\": 0.1}")), "");
    EXPECT_EQ(packedFileReason(m_dir / "missing.zip"), "");
}

} // namespace
} // namespace stepscope::import::detect

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "import/csv/csvfield.h"
#include "import/csv/csvreader.h"
#include "import/importcontext.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace stepscope;
using import::csv::CsvReader;

namespace {

class CsvTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = fs::temp_directory_path()
            / ("stepscope_csv_"
                + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
        m_ctx.root = m_dir;
        m_ctx.report = &m_report;
        m_ctx.progress = &m_progress;
    }
    void TearDown() override { fs::remove_all(m_dir); }

    fs::path write(const std::string &name, const std::string &content)
    {
        const fs::path p = m_dir / name;
        std::ofstream(p, std::ios::binary) << content;
        return p;
    }

    fs::path m_dir;
    model::LoadReport m_report;
    util::Progress m_progress;
    import::ImportContext m_ctx;
};

TEST_F(CsvTest, MixedLineEndingsBomAndColumnsByName)
{
    const fs::path p = write("a.csv",
        "\xEF\xBB\xBF"
        " B ,A,Extra\r\n"
        "1,2,x\n"
        "3,4,y\r"
        "\r\n"
        "5,6,z");
    CsvReader r(p, &m_ctx);
    ASSERT_TRUE(r.readHeader());
    EXPECT_EQ(r.column("A"), 1);
    EXPECT_EQ(r.column("B"), 0); // BOM and blanks stripped from the name
    EXPECT_EQ(r.column("Missing"), -1);
    EXPECT_EQ(r.columnAnyOf({"Nope", "Extra"}), 2);
    std::vector<std::string> a;
    std::vector<std::int64_t> lines;
    while (r.next()) {
        a.emplace_back(r.field(r.column("A")));
        lines.push_back(r.line());
    }
    EXPECT_EQ(a, (std::vector<std::string> {"2", "4", "6"}));
    // CR alone ends line 3; the empty line 4 is skipped; the last line has no line end.
    EXPECT_EQ(lines, (std::vector<std::int64_t> {2, 3, 5}));
    EXPECT_TRUE(m_report.empty()) << m_report.toText();
    EXPECT_EQ(r.bytesRead(), fs::file_size(p));
    EXPECT_EQ(m_progress.done(), fs::file_size(p));
}

TEST_F(CsvTest, QuotedFieldsWithNewlinesAndDoubledQuotes)
{
    const fs::path p = write("q.csv",
        "Name,Shapes,Stack,N\n"
        "op1,\"\"\"32,3,224\"\"\",\"a;\nb;\r\nc\",7\n"
        "op2,,\"say \"\"hi\"\"\",8\n");
    CsvReader r(p, &m_ctx);
    ASSERT_TRUE(r.readHeader());
    ASSERT_TRUE(r.next());
    EXPECT_EQ(r.line(), 2);
    EXPECT_EQ(r.field(1), "\"32,3,224\"");
    EXPECT_EQ(r.rawField(2), "a;\nb;\nc");
    EXPECT_EQ(r.field(3), "7");
    ASSERT_TRUE(r.next());
    EXPECT_EQ(r.line(), 5); // the quoted field spanned lines 2..4
    EXPECT_EQ(r.field(1), "");
    EXPECT_EQ(r.field(2), "say \"hi\"");
    EXPECT_FALSE(r.next());
    EXPECT_TRUE(m_report.empty()) << m_report.toText();
}

TEST_F(CsvTest, ShortAndLongRecordsAreReportedWithLines)
{
    const fs::path p = write("bad.csv", "A,B,C\n1,2,3\n4,5\n6,7,8,9\n10,11,12\n13,");
    CsvReader r(p, &m_ctx);
    ASSERT_TRUE(r.readHeader());
    std::vector<std::string> first;
    while (r.next())
        first.emplace_back(r.field(0));
    EXPECT_EQ(first, (std::vector<std::string> {"1", "6", "10"}));
    EXPECT_EQ(r.skippedCount(), 2u);
    EXPECT_EQ(r.recordCount(), 3u);
    const auto &d = m_report.diagnostics();
    ASSERT_EQ(d.size(), 2u) << m_report.toText();
    EXPECT_EQ(d[0].file, "bad.csv");
    EXPECT_EQ(d[0].line, 3); // first short record
    EXPECT_EQ(d[0].count, 2u); // lines 3 and 6 merged
    EXPECT_NE(d[0].message.find("fewer fields"), std::string::npos);
    EXPECT_EQ(d[1].line, 4);
    EXPECT_NE(d[1].message.find("more fields"), std::string::npos);
}

TEST_F(CsvTest, UnterminatedQuoteIsReported)
{
    const fs::path p = write("u.csv", "A,B\n1,\"open\nnever closed");
    CsvReader r(p, &m_ctx);
    ASSERT_TRUE(r.readHeader());
    ASSERT_TRUE(r.next());
    EXPECT_EQ(r.field(1), "open\nnever closed");
    EXPECT_FALSE(r.next());
    ASSERT_EQ(m_report.diagnostics().size(), 1u);
    EXPECT_EQ(m_report.diagnostics()[0].line, 2);
    EXPECT_NE(m_report.diagnostics()[0].message.find("unterminated"), std::string::npos);
}

TEST_F(CsvTest, EmptyAndMissingFiles)
{
    CsvReader empty(write("e.csv", ""), &m_ctx);
    EXPECT_TRUE(empty.isOpen());
    EXPECT_FALSE(empty.readHeader());
    CsvReader missing(m_dir / "nope.csv", &m_ctx);
    EXPECT_FALSE(missing.isOpen());
    EXPECT_FALSE(missing.readHeader());
    ASSERT_EQ(m_report.diagnostics().size(), 2u);
    EXPECT_EQ(m_report.diagnostics()[0].file, "e.csv");
    EXPECT_EQ(m_report.diagnostics()[1].file, "nope.csv");
}

TEST_F(CsvTest, QuotedFieldAcrossChunkBoundary)
{
    // More than one 64 KiB read chunk, with quoted fields and CRLF everywhere.
    std::string text = "Id,Text\r\n";
    for (int i = 0; i < 5000; ++i)
        text += std::to_string(i) + ",\"line a\r\nline \"\"b\"\"\"\r\n";
    const fs::path p = write("big.csv", text);
    CsvReader r(p, &m_ctx);
    ASSERT_TRUE(r.readHeader());
    int n = 0;
    while (r.next()) {
        ASSERT_EQ(r.field(0), std::to_string(n));
        ASSERT_EQ(r.field(1), "line a\nline \"b\"");
        ASSERT_EQ(r.line(), 2 + 2 * n);
        ++n;
    }
    EXPECT_EQ(n, 5000);
    EXPECT_TRUE(m_report.empty());
}

TEST_F(CsvTest, CancelStopsAStreamingRead)
{
    // About 3 MiB: the reader checks the token about every MiB, so it stops well before the end.
    std::string text = "Id,Text\n";
    while (text.size() < 3 * 1024 * 1024)
        text += "123456,some text that fills the line quite a bit\n";
    const fs::path p = write("big.csv", text);
    util::CancelToken token;
    util::Progress progress([](const std::string &, std::uint64_t, std::uint64_t) {}, &token);
    m_ctx.progress = &progress;
    token.cancel();
    CsvReader r(p, &m_ctx);
    ASSERT_TRUE(r.readHeader()); // the first check comes after 1 MiB
    std::uint64_t n = 0;
    EXPECT_THROW(
        {
            while (r.next())
                ++n;
        },
        util::Cancelled);
    EXPECT_LT(r.bytesRead(), fs::file_size(p));
    EXPECT_LT(n, 60000u);
}

TEST_F(CsvTest, RandomGarbageNeverCrashes)
{
    // Deterministic garbage rich in separators, quotes, line ends and high bytes.
    std::uint32_t state = 12345;
    auto next = [&state]() {
        state = state * 1103515245u + 12345u;
        return (state >> 16) & 0x7fffu;
    };
    const char alphabet[] = {',', '"', '\r', '\n', '\t', ' ', 'a', '1', '.', '\xff', '\0', 'E'};
    for (int round = 0; round < 50; ++round) {
        std::string text = "A,B,C\n";
        const std::uint32_t length = next() % 2000;
        for (std::uint32_t i = 0; i < length; ++i)
            text.push_back(alphabet[next() % sizeof(alphabet)]);
        CsvReader r(write("g.csv", text), &m_ctx);
        ASSERT_TRUE(r.readHeader());
        std::uint64_t n = 0;
        std::int64_t lastLine = 0;
        while (r.next()) {
            ASSERT_GE(r.fieldCount(), 3u);
            ASSERT_GT(r.line(), lastLine); // records start on increasing lines
            lastLine = r.line();
            ++n;
        }
        EXPECT_EQ(n, r.recordCount());
        EXPECT_EQ(r.bytesRead(), text.size());
    }
}

TEST(CsvField, SentinelsTabsAndSpreadsheetNumbers)
{
    using namespace import::csv;
    EXPECT_TRUE(isMissing(""));
    EXPECT_TRUE(isMissing(" N/A "));
    EXPECT_FALSE(isMissing("0"));
    EXPECT_FALSE(parseId("4294967295").has_value());
    EXPECT_FALSE(parseId("N/A").has_value());
    EXPECT_EQ(parseId("16").value_or(-1), 16);

    const ExactValue t = parseMicros("1736412474730135.222\t");
    EXPECT_EQ(t.status, ValueStatus::Ok);
    EXPECT_EQ(t.value, 1736412474730135222);
    EXPECT_EQ(parseMicros("1.69512E+15").status, ValueStatus::Scientific);
    EXPECT_EQ(parseMicros("9.4509e13").status, ValueStatus::Scientific);
    EXPECT_EQ(parseMicros("").status, ValueStatus::Missing);
    EXPECT_EQ(parseMicros("abc").status, ValueStatus::Invalid);
    EXPECT_TRUE(isScientific("1.69512E+15"));
    EXPECT_FALSE(isScientific("1695115378714622.8"));
    EXPECT_FALSE(isScientific("E+15"));
    EXPECT_DOUBLE_EQ(parseNumber("4599.74072265625").value_or(0), 4599.74072265625);
    EXPECT_FALSE(parseNumber("N/A").has_value());
}

TEST(CsvRealFile, OperatorDetailsMultilineRecords)
{
    // 859 records over 6 224 lines (checked with python3's csv module); last record on line 6213.
    const fs::path p = fs::path(STEPSCOPE_TEST_DATA)
        / "ascend_pt/msinsight-cnn-level2-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/"
          "operator_details.csv";
    model::LoadReport report;
    import::ImportContext ctx;
    ctx.root = fs::path(STEPSCOPE_TEST_DATA);
    ctx.report = &report;
    CsvReader r(p, &ctx);
    ASSERT_TRUE(r.readHeader());
    EXPECT_EQ(r.header().size(), 9u);
    const int name = r.column("Name");
    const int host = r.column("Host Self Duration(us)");
    std::size_t n = 0;
    std::string firstName;
    std::string lastHost;
    std::int64_t lastLine = 0;
    while (r.next()) {
        if (n == 0)
            firstName = r.field(name);
        lastHost = r.field(host);
        lastLine = r.line();
        ++n;
    }
    EXPECT_EQ(n, 859u);
    EXPECT_EQ(firstName, "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__");
    EXPECT_EQ(lastHost, "132.09");
    EXPECT_EQ(lastLine, 6213);
    EXPECT_TRUE(report.empty()) << report.toText();
}

} // namespace

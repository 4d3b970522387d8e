// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Ids read on the chunk workers (Dialect::readIds): with args on demand the parser stages the
// args text only of the events whose dialect asked for it (EventClass::needArgs), so a load
// never holds every event's args; onEvent gets the ids of every event and the text of just
// those, the same in every mode, and every event's args still read back from the file.
#include "chrometrace_testutil.h"
#include "import/chrometrace/argscan.h"
#include "import/chrometrace/chunk.h"
#include "import/chrometrace/tracereader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

using namespace stepscope;
namespace ct = stepscope::import::chrometrace;
namespace fs = std::filesystem;

namespace {

/// Reads `correlation` on the workers; asks for the text of the events named "keep".
class IdsDialect final : public ct::Dialect
{
public:
    model::TrackKind classifyTrack(const ct::ProcessMeta &, const ct::ThreadMeta &) const override
    {
        return model::TrackKind::HostThread;
    }
    ct::EventClass classifyEvent(const ct::EventFields &e) const override
    {
        ct::EventClass c;
        c.needArgs = e.name == "keep";
        return c;
    }
    void readIds(const ct::EventFields &e, ct::EventArgIds &ids) const override
    {
        ids.correlation = ct::argInt(e.args, "correlation").value_or(-1);
    }
    void onEvent(const ct::EventInfo &e, model::TraceBuilder &) const override
    {
        seen.push_back({std::string(e.name), std::string(e.args), e.ids.correlation});
    }
    struct Seen
    {
        std::string name;
        std::string args;
        std::int64_t correlation;
    };
    mutable std::vector<Seen> seen;
};

const std::string Events = R"([
  {"ph":"X","name":"op","pid":1,"tid":1,"ts":1,"dur":1,"args":{"correlation": 11, "pad":"xxxxxxxxxxxxxxxx"}},
  {"ph":"X","name":"keep","pid":1,"tid":1,"ts":3,"dur":1,"args":{"correlation":12,"v":1}},
  {"ph":"B","name":"open","pid":1,"tid":1,"ts":5,"args":{"correlation":13}},
  {"ph":"E","pid":1,"tid":1,"ts":6,"args":{"correlation":99}},
  {"ph":"X","name":"bare","pid":1,"tid":1,"ts":7,"dur":1,"correlation":14},
  {"ph":"X","name":"none","pid":1,"tid":1,"ts":9,"dur":1}
])";

/// The events as one chunk, as the scanner cuts it.
ct::Chunk chunkOf(const std::string &array)
{
    ct::Chunk chunk;
    testsupport::fillChunk(chunk, array);
    return chunk;
}

TEST(ArgScan, OnePassReadsEachKeyAsItsFirstKeyPlaceSays)
{
    using Values = std::vector<std::optional<std::int64_t>>;
    const std::vector<std::string_view> keys = {"correlation", "External id", "external id"};
    const auto read = [&](std::string_view args) {
        Values values(keys.size());
        ct::argInts(args, keys.data(), values.data(), keys.size());
        for (std::size_t i = 0; i < keys.size(); ++i)
            EXPECT_EQ(values[i], ct::argInt(args, keys[i])) << args << " " << keys[i];
        return values;
    };
    EXPECT_EQ(read(R"({"correlation": 11, "External id": 7})"), (Values {11, 7, std::nullopt}));
    EXPECT_EQ(read("{\n  \"External id\" :\t-5 ,\n  \"correlation\":\"42\"}"),
        (Values {42, -5, std::nullopt}));
    // A key's name as a value first; the key after it counts.
    EXPECT_EQ(read(R"({"name":"correlation","external id":3})"),
        (Values {std::nullopt, std::nullopt, 3}));
    // Not integers: a fraction, an exponent, text, past int64; the first key place decides.
    EXPECT_EQ(read(R"({"correlation":12.5,"External id":1e3,"external id":"x","correlation":5})"),
        (Values {std::nullopt, std::nullopt, std::nullopt}));
    EXPECT_EQ(read(R"({"correlation":"x","correlation":5,"External id":1})"),
        (Values {std::nullopt, 1, std::nullopt}));
    EXPECT_EQ(read(R"({"correlation":99999999999999999999})"),
        (Values {std::nullopt, std::nullopt, std::nullopt}));
    EXPECT_EQ(read(R"({"correlation")"), (Values {std::nullopt, std::nullopt, std::nullopt}));
    EXPECT_EQ(
        read(R"({"pad":")" + std::string(45, 'x') + R"(","External id":-1,"correlation":77})"),
        (Values {77, -1, std::nullopt}));
    EXPECT_EQ(read(""), (Values {std::nullopt, std::nullopt, std::nullopt}));

    // More keys than one pass takes: the ninth is still read.
    const std::vector<std::string_view> many = {"a", "b", "c", "d", "e", "f", "g", "h", "i"};
    Values values(many.size());
    ct::argInts(R"({"i":9,"a":1,"h":8})", many.data(), values.data(), many.size());
    EXPECT_EQ(values,
        (Values {1, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
            std::nullopt, 8, 9}));
}

TEST(ChromeTraceArgIds, OnDemandStagesOnlyTheTextTheDialectAskedFor)
{
    IdsDialect dialect;
    for (const bool onDemand : {true, false}) {
        SCOPED_TRACE(onDemand ? "on demand" : "resident");
        ct::ParseSettings settings;
        settings.dialect = &dialect;
        settings.file = "t.json";
        settings.keepArgs = true;
        settings.argsOnDemand = onDemand;
        ct::ChunkParser parser;
        const ct::ChunkResult r = parser.parse(chunkOf(Events), settings);
        ASSERT_EQ(r.events.size(), 6u);
        // Every event with args (the E's too, and the unknown field of "bare") has an entry.
        // On demand it numbers a record, and only what the dialect reads is staged as text.
        const auto textOf = [&r, onDemand](model::ArgsId id) -> std::string {
            if (!onDemand)
                return std::string(r.args.view(id));
            const auto at = std::find(r.stagedAt.begin(), r.stagedAt.end(), id.value());
            return at == r.stagedAt.end()
                ? std::string()
                : std::string(r.args.view(
                    model::ArgsId(static_cast<std::uint32_t>(at - r.stagedAt.begin()))));
        };
        std::map<std::string, std::string> staged;
        std::vector<std::int64_t> ids;
        for (const ct::ChunkEvent &e : r.events) {
            ids.push_back(e.ids.correlation);
            if (e.args.isValid())
                staged[std::string(r.strings.view(e.name)) + e.phase] = textOf(e.args);
        }
        EXPECT_EQ(ids, (std::vector<std::int64_t> {11, 12, 13, -1, 14, -1}));
        ASSERT_EQ(staged.size(), 5u);
        EXPECT_EQ(staged["keepX"], R"({"correlation":12,"v":1})");
        if (onDemand) {
            EXPECT_EQ(r.argsOffsets.size(), 5u);
            EXPECT_EQ(r.args.size(), 1u); // "keep" alone: no entry for what is not staged
            EXPECT_EQ(r.stagedAt, (std::vector<std::uint32_t> {1}));
            EXPECT_EQ(staged["opX"], "");
            EXPECT_EQ(staged["openB"], "");
            EXPECT_EQ(staged["bareX"], "");
        } else {
            EXPECT_TRUE(r.argsOffsets.empty());
            EXPECT_EQ(staged["opX"], R"({"correlation":11,"pad":"xxxxxxxxxxxxxxxx"})");
            EXPECT_EQ(staged["bareX"], R"({"correlation":14})");
        }
    }
}

class ChromeTraceArgIdsFile : public testsupport::TempDirTest
{
};

TEST_F(ChromeTraceArgIdsFile, OnEventSeesTheSameInEveryModeAndArgsReadBack)
{
    const fs::path file = m_tmp / "t.json";
    testsupport::writeFile(file, Events);
    for (const bool onDemand : {true, false}) {
        SCOPED_TRACE(onDemand ? "on demand" : "resident");
        IdsDialect dialect;
        model::LoadReport report;
        import::ImportContext ctx;
        ctx.root = m_tmp;
        ctx.report = &report;
        ctx.options.argsOnDemand = onDemand;
        model::TraceBuilder out;
        ASSERT_TRUE(ct::readTraceFile(file, dialect, ctx, out));
        std::map<std::string, IdsDialect::Seen> byName;
        for (const IdsDialect::Seen &s : dialect.seen)
            byName[s.name] = s;
        ASSERT_EQ(byName.size(), 5u);
        EXPECT_EQ(byName["op"].correlation, 11);
        EXPECT_EQ(byName["op"].args, "");
        EXPECT_EQ(byName["keep"].correlation, 12);
        EXPECT_EQ(byName["keep"].args, R"({"correlation":12,"v":1})");
        EXPECT_EQ(byName["open"].correlation, 13);
        EXPECT_EQ(byName["bare"].correlation, 14);
        EXPECT_EQ(byName["none"].correlation, -1);

        const model::Trace trace = out.finish().trace;
        const std::vector<std::string> all = trace.args.readAll();
        std::map<std::string, std::string> args;
        const model::Track &track = trace.tracks.at(0);
        for (std::uint32_t i = 0; i < track.size(); ++i) {
            if (track.args(i).isValid())
                args[std::string(trace.strings.view(track.name(i)))] =
                    all.at(track.args(i).value());
        }
        EXPECT_EQ(args["op"], R"({"correlation":11,"pad":"xxxxxxxxxxxxxxxx"})");
        EXPECT_EQ(args["open"], R"({"correlation":13})");
        EXPECT_EQ(args["bare"], R"({"correlation":14})");
        EXPECT_EQ(args.count("none"), 0u);
    }
}

} // namespace

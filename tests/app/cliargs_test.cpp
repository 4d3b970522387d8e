// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The headless commands' parsers (app/cliargs.cpp): values read without exceptions, bad
// values an error naming the option, every option in the command's --help.

#include "app/cliargs.h"

#include <gtest/gtest.h>

using namespace stepscope::app;
using Action = ParseOutcome::Action;

namespace {

QStringList words(std::initializer_list<const char *> list)
{
    QStringList out;
    for (const char *w : list)
        out << QString::fromUtf8(w);
    return out;
}

ParseOutcome exportWith(std::initializer_list<const char *> extra, ExportArgs *args)
{
    QStringList a = words({"export", "run", "--out", "pics"});
    for (const char *w : extra)
        a << QString::fromUtf8(w);
    return parseExportArgs(a, args);
}

} // namespace

TEST(CliArgs, ExportReadsEveryOption)
{
    ExportArgs a;
    const ParseOutcome r =
        exportWith({"--view", "memory", "--step", "10", "--range", "-5:2500", "--size", "800x600",
                       "--scale", "2", "--format", "svg", "--config", "c.json"},
            &a);
    ASSERT_EQ(r.action, Action::Run) << r.text.toStdString();
    EXPECT_EQ(a.path, "run");
    EXPECT_EQ(a.out, "pics");
    EXPECT_EQ(a.view, "memory");
    EXPECT_EQ(a.step, 10);
    ASSERT_TRUE(a.rangeUs);
    EXPECT_EQ(a.rangeUs->first, -5);
    EXPECT_EQ(a.rangeUs->second, 2500);
    ASSERT_TRUE(a.size);
    EXPECT_EQ(a.size->first, 800);
    EXPECT_EQ(a.size->second, 600);
    EXPECT_DOUBLE_EQ(a.scale, 2);
    EXPECT_EQ(a.format, "svg");
    EXPECT_EQ(a.config, "c.json");
}

TEST(CliArgs, BadValuesAreErrorsNamingTheOption)
{
    const struct
    {
        std::initializer_list<const char *> args;
        const char *option;
    } cases[] = {
        // The issue-14 crash: std::stoll threw std::out_of_range out of main.
        {{"--range", "99999999999999999999:1"}, "--range"},
        {{"--range", "0:99999999999999999"}, "--range"},
        {{"--range", "10:5"}, "--range"},
        {{"--range", "a:b"}, "--range"},
        {{"--step", "12x"}, "--step"},
        {{"--step", "99999999999999999999"}, "--step"},
        {{"--size", "99999999999x2"}, "--size"},
        {{"--size", "10x10"}, "--size"},
        {{"--scale", "fast"}, "--scale"},
        {{"--scale", "9"}, "--scale"},
        {{"--format", "gif"}, "--format"},
        {{"--view", "gpus"}, "--view"},
        {{"--nosuch"}, "nosuch"},
        {{"--step"}, "step"},
    };
    for (const auto &c : cases) {
        ExportArgs a;
        const ParseOutcome r = exportWith(c.args, &a);
        EXPECT_EQ(r.action, Action::Error) << *c.args.begin();
        EXPECT_TRUE(r.text.contains(QString::fromUtf8(c.option)))
            << r.text.toStdString() << " should name " << c.option;
        EXPECT_TRUE(r.text.startsWith(QStringLiteral("stepscope export: ")));
    }
    ExportArgs a;
    EXPECT_EQ(parseExportArgs(words({"export", "run"}), &a).action, Action::Error);
}

TEST(CliArgs, SummaryDumpAndCompare)
{
    LoadArgs s;
    ASSERT_EQ(
        parseLoadArgs(words({"summary", "p", "--json", "--config", "c.json"}), true, &s).action,
        Action::Run);
    EXPECT_EQ(s.path, "p");
    EXPECT_TRUE(s.json);
    EXPECT_EQ(s.config, "c.json");
    LoadArgs d;
    const ParseOutcome noConfig =
        parseLoadArgs(words({"dump", "p", "--config", "c.json"}), false, &d);
    EXPECT_EQ(noConfig.action, Action::Error);
    EXPECT_TRUE(noConfig.text.contains(QStringLiteral("config")));
    LoadArgs m;
    EXPECT_TRUE(
        parseLoadArgs(words({"summary"}), true, &m).text.contains(QStringLiteral("missing PATH")));

    CompareArgs c;
    ASSERT_EQ(
        parseCompareArgs(words({"compare", "a", "b", "--report", "r"}), &c).action, Action::Run);
    EXPECT_EQ(c.paths, (std::vector<std::string> {"a", "b"}));
    EXPECT_EQ(c.reportDir, "r");
    CompareArgs one;
    EXPECT_EQ(parseCompareArgs(words({"compare", "a", "--json"}), &one).action, Action::Error);
    CompareArgs neither;
    EXPECT_EQ(parseCompareArgs(words({"compare", "a", "b"}), &neither).action, Action::Error);
}

TEST(CliArgs, HelpListsEveryOption)
{
    ExportArgs a;
    const ParseOutcome help = parseExportArgs(words({"export", "--help"}), &a);
    ASSERT_EQ(help.action, Action::Help);
    for (const char *o :
        {"--out", "--view", "--step", "--range", "--size", "--scale", "--format", "--config"})
        EXPECT_TRUE(help.text.contains(QString::fromUtf8(o))) << o;
    EXPECT_TRUE(help.text.startsWith(QStringLiteral("Usage: stepscope export")));
    CompareArgs c;
    const ParseOutcome ch = parseCompareArgs(words({"compare", "-h"}), &c);
    ASSERT_EQ(ch.action, Action::Help);
    EXPECT_TRUE(ch.text.contains(QStringLiteral("--report")));
    EXPECT_TRUE(ch.text.contains(QStringLiteral("--json")));
}

TEST(CliArgs, CompareRanks)
{
    CompareArgs none;
    ASSERT_EQ(parseCompareArgs(words({"compare", "a", "b", "--json"}), &none).action, Action::Run);
    EXPECT_FALSE(none.beforeRank); // the slowest rank of each run
    EXPECT_FALSE(none.afterRank);

    CompareArgs both;
    ASSERT_EQ(parseCompareArgs(words({"compare", "a", "b", "--json", "--rank", "3"}), &both).action,
        Action::Run);
    EXPECT_EQ(both.beforeRank, 3);
    EXPECT_EQ(both.afterRank, 3);
    EXPECT_EQ(both.beforeRankOption, "--rank");

    CompareArgs sides;
    ASSERT_EQ(
        parseCompareArgs(
            words({"compare", "a", "b", "--json", "--rank", "3", "--after-rank", "1"}), &sides)
            .action,
        Action::Run);
    EXPECT_EQ(sides.beforeRank, 3);
    EXPECT_EQ(sides.afterRank, 1); // a side's own option wins over --rank
    EXPECT_EQ(sides.afterRankOption, "--after-rank");

    for (const char *bad : {"-1", "x", "1.5", "", "2147483648"}) {
        CompareArgs c;
        const ParseOutcome o =
            parseCompareArgs(words({"compare", "a", "b", "--json", "--before-rank", bad}), &c);
        EXPECT_EQ(o.action, Action::Error) << bad;
        EXPECT_TRUE(o.text.contains(QStringLiteral("--before-rank takes a rank number")))
            << o.text.toStdString();
    }
    CompareArgs help;
    const ParseOutcome h = parseCompareArgs(words({"compare", "--help"}), &help);
    for (const char *o : {"--rank", "--before-rank", "--after-rank", "slowest rank"})
        EXPECT_TRUE(h.text.contains(QString::fromUtf8(o))) << o;
}

TEST(CliArgs, LoadLimitsOfEveryLoadingCommand)
{
    LoadArgs s;
    ASSERT_EQ(
        parseLoadArgs(words({"summary", "p", "--ranks", "0-3, 7", "--no-memory-check"}), true, &s)
            .action,
        Action::Run);
    EXPECT_EQ(s.limits.ranks, (std::vector<std::int32_t> {0, 1, 2, 3, 7}));
    EXPECT_FALSE(s.limits.memoryCheck);
    LoadArgs d;
    ASSERT_EQ(parseLoadArgs(words({"dump", "p"}), false, &d).action, Action::Run);
    EXPECT_TRUE(d.limits.ranks.empty());
    EXPECT_TRUE(d.limits.memoryCheck);
    ExportArgs e;
    ASSERT_EQ(exportWith({"--ranks", "2"}, &e).action, Action::Run);
    EXPECT_EQ(e.limits.ranks, (std::vector<std::int32_t> {2}));
    CompareArgs c;
    ASSERT_EQ(
        parseCompareArgs(words({"compare", "a", "b", "--json", "--no-memory-check"}), &c).action,
        Action::Run);
    EXPECT_FALSE(c.memoryCheck);
    CompareArgs checked;
    ASSERT_EQ(
        parseCompareArgs(words({"compare", "a", "b", "--json"}), &checked).action, Action::Run);
    EXPECT_TRUE(checked.memoryCheck);
}

TEST(CliArgs, LoadLimitsBadListsNameTheOption)
{
    for (const char *bad : {"", "x", "3-1", "1,,2", "-1", "99999999999"}) {
        LoadArgs s;
        const ParseOutcome r = parseLoadArgs(words({"summary", "p", "--ranks", bad}), true, &s);
        EXPECT_EQ(r.action, Action::Error) << bad;
        EXPECT_TRUE(r.text.contains(QStringLiteral("--ranks takes a list of ranks"))) << bad;
    }
    ExportArgs e;
    EXPECT_EQ(exportWith({"--ranks", "a-b"}, &e).action, Action::Error);
    LoadArgs help;
    const ParseOutcome h = parseLoadArgs(words({"summary", "--help"}), true, &help);
    EXPECT_TRUE(h.text.contains(QStringLiteral("--ranks")));
    EXPECT_TRUE(h.text.contains(QStringLiteral("--no-memory-check")));
}

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The window's command line (app/windowargs.cpp). Qt's own options are taken out by
// QApplication before this parser runs (the gui_qt_options_pass_through ctest checks that
// end to end); these tests check what remains.

#include "app/windowargs.h"

#include <gtest/gtest.h>

using stepscope::app::parseWindowArgs;
using stepscope::app::WindowArgs;

namespace {

WindowArgs parse(QStringList args)
{
    args.prepend(QStringLiteral("stepscope"));
    return parseWindowArgs(args);
}

} // namespace

TEST(WindowArgs, OnePathOpensTwoCompare)
{
    const WindowArgs none = parse({});
    EXPECT_EQ(none.action, WindowArgs::Action::Run);
    EXPECT_TRUE(none.paths.isEmpty());

    const WindowArgs one = parse({QStringLiteral("/runs/a")});
    EXPECT_EQ(one.action, WindowArgs::Action::Run);
    EXPECT_EQ(one.paths, QStringList {QStringLiteral("/runs/a")});

    const WindowArgs two =
        parse({QStringLiteral("--compare"), QStringLiteral("before"), QStringLiteral("after")});
    EXPECT_EQ(two.action, WindowArgs::Action::Run);
    EXPECT_EQ(two.paths, (QStringList {QStringLiteral("before"), QStringLiteral("after")}));
}

TEST(WindowArgs, ScreenshotTakesAFileInBothSpellings)
{
    EXPECT_EQ(
        parse({QStringLiteral("--screenshot"), QStringLiteral("out.png"), QStringLiteral("p")})
            .screenshot,
        QStringLiteral("out.png"));
    const WindowArgs eq = parse({QStringLiteral("--screenshot=x.png"), QStringLiteral("p")});
    EXPECT_EQ(eq.screenshot, QStringLiteral("x.png"));
    EXPECT_EQ(eq.paths, QStringList {QStringLiteral("p")});
}

TEST(WindowArgs, BadUseIsAnErrorNamingTheOption)
{
    const WindowArgs unknown = parse({QStringLiteral("--nosuch"), QStringLiteral("p")});
    EXPECT_EQ(unknown.action, WindowArgs::Action::Error);
    EXPECT_TRUE(unknown.message.contains(QStringLiteral("nosuch")))
        << unknown.message.toStdString();

    const WindowArgs missing = parse({QStringLiteral("--screenshot")});
    EXPECT_EQ(missing.action, WindowArgs::Action::Error);
    EXPECT_TRUE(missing.message.contains(QStringLiteral("screenshot")));

    const WindowArgs three = parse({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
    EXPECT_EQ(three.action, WindowArgs::Action::Error);

    const WindowArgs compareOne = parse({QStringLiteral("--compare"), QStringLiteral("a")});
    EXPECT_EQ(compareOne.action, WindowArgs::Action::Error);
    EXPECT_TRUE(compareOne.message.contains(QStringLiteral("--compare")));
}

TEST(WindowArgs, HelpAndVersion)
{
    EXPECT_EQ(parse({QStringLiteral("--help")}).action, WindowArgs::Action::Help);
    EXPECT_EQ(parse({QStringLiteral("-h")}).action, WindowArgs::Action::Help);
    EXPECT_EQ(parse({QStringLiteral("--version")}).action, WindowArgs::Action::Version);
    EXPECT_TRUE(stepscope::app::windowOptionsHelp().contains(QStringLiteral("--screenshot")));
}

TEST(WindowArgs, CompareRanks)
{
    const WindowArgs a = parse({QStringLiteral("--before-rank"), QStringLiteral("1"),
        QStringLiteral("--rank"), QStringLiteral("0"), QStringLiteral("/a"), QStringLiteral("/b")});
    ASSERT_EQ(a.action, WindowArgs::Action::Run);
    EXPECT_EQ(a.beforeRank, 1);
    EXPECT_EQ(a.afterRank, 0);
    const WindowArgs bad = parse({QStringLiteral("--rank"), QStringLiteral("x"),
        QStringLiteral("/a"), QStringLiteral("/b")});
    EXPECT_EQ(bad.action, WindowArgs::Action::Error);
    EXPECT_TRUE(bad.message.contains(QStringLiteral("--rank"))) << bad.message.toStdString();
    const WindowArgs one =
        parse({QStringLiteral("--after-rank"), QStringLiteral("2"), QStringLiteral("/a")});
    EXPECT_EQ(one.action, WindowArgs::Action::Error);
    EXPECT_TRUE(one.message.contains(QStringLiteral("two paths")));
}

TEST(WindowArgs, RanksAndTheMemoryCheckForOnePath)
{
    const WindowArgs a = parse({QStringLiteral("--ranks"), QStringLiteral("0-2,9"),
        QStringLiteral("--no-memory-check"), QStringLiteral("/runs/a")});
    ASSERT_EQ(a.action, WindowArgs::Action::Run) << a.message.toStdString();
    EXPECT_EQ(a.limits.ranks, (std::vector<std::int32_t> {0, 1, 2, 9}));
    EXPECT_FALSE(a.limits.memoryCheck);
    const WindowArgs plain = parse({QStringLiteral("/runs/a")});
    EXPECT_TRUE(plain.limits.ranks.empty());
    EXPECT_TRUE(plain.limits.memoryCheck);

    const WindowArgs bad =
        parse({QStringLiteral("--ranks"), QStringLiteral("5-1"), QStringLiteral("/runs/a")});
    EXPECT_EQ(bad.action, WindowArgs::Action::Error);
    EXPECT_TRUE(bad.message.contains(QStringLiteral("--ranks"))) << bad.message.toStdString();
    const WindowArgs twoPaths = parse(
        {QStringLiteral("--ranks"), QStringLiteral("1"), QStringLiteral("a"), QStringLiteral("b")});
    EXPECT_EQ(twoPaths.action, WindowArgs::Action::Error);
    EXPECT_TRUE(twoPaths.message.contains(QStringLiteral("one PATH")));
}

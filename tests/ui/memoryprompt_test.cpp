// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The window's answer to a load the memory budget refused (docs/robustness.md "Memory
// budget"): it asks, offers the ranks that fit, and loads what the user picks.
#include "ui/loading/memoryprompt.h"
#include "ui/mainwindow.h"

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>

#include <filesystem>
#include <functional>

using namespace stepscope;
using namespace stepscope::ui;

namespace {

const QString TwoRanks = QString::fromStdString(
    std::string(STEPSCOPE_TEST_DATA) + "/ascend_pt/msinsight-cnn-level0-2rank");

bool waitFor(const std::function<bool()> &done, int timeoutMs = 20000)
{
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    return done();
}

QMessageBox *prompt(const QWidget &window)
{
    return window.findChild<QMessageBox *>(QStringLiteral("memoryBudgetPrompt"));
}

QPushButton *buttonNamed(QMessageBox *box, const QString &prefix)
{
    for (QAbstractButton *b : box->buttons())
        if (b->text().startsWith(prefix))
            return qobject_cast<QPushButton *>(b);
    return nullptr;
}

struct PromptFixture : ::testing::Test
{
    void SetUp() override
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("StepScopeTests"));
        // The real loader, on a machine that has room for one of the two ranks: the first
        // rank's estimate (asked of the loader itself) plus a little.
        util::Progress probe;
        import::LoadOptions tiny;
        tiny.availableBytes = 1;
        const import::LoadResult r =
            import::loadPath(std::filesystem::u8path(TwoRanks.toStdString()), probe, tiny);
        ASSERT_TRUE(r.refused.has_value());
        ASSERT_EQ(r.refused->ranks.size(), 2u);
        const std::uint64_t one = r.refused->needBytes({0});
        ASSERT_LT(one + 1000, r.refused->needBytes());
        window.loader()->setLoadFunction([one](const QString &path, util::Progress &progress,
                                             const import::LoadOptions &o) {
            import::LoadOptions options = o;
            options.availableBytes = one + 1000;
            return import::loadPath(std::filesystem::u8path(path.toStdString()), progress, options);
        });
    }
    MainWindow window;
};

} // namespace

TEST_F(PromptFixture, ARefusedLoadOffersTheRanksThatFitAndLoadsThem)
{
    window.openPath(TwoRanks);
    ASSERT_TRUE(waitFor([&] { return prompt(window) != nullptr; }));
    QMessageBox *box = prompt(window);
    EXPECT_FALSE(window.session()); // nothing is shown yet
    EXPECT_TRUE(box->text().contains(QStringLiteral("msinsight-cnn-level0-2rank needs about")))
        << box->text().toStdString();
    EXPECT_TRUE(box->informativeText().startsWith(QStringLiteral("1 of its 2 ranks fits (about ")))
        << box->informativeText().toStdString();
    QPushButton *subset = buttonNamed(box, QStringLiteral("Open Rank 0"));
    ASSERT_NE(subset, nullptr);
    EXPECT_EQ(box->defaultButton(), subset);
    ASSERT_NE(buttonNamed(box, QStringLiteral("Open Anyway")), nullptr);
    subset->click();
    ASSERT_TRUE(waitFor([&] { return window.session() != nullptr; }));
    ASSERT_EQ(window.session()->traces.size(), 1u);
    EXPECT_EQ(window.session()->traces[0]->rank, 0);
    // The status bar says that this is a subset.
    const QString status = window.statusBar()->findChild<QLabel *>()->text();
    EXPECT_TRUE(status.contains(QStringLiteral("1 rank · "))
        && status.contains(QStringLiteral("(--ranks 0)")))
        << status.toStdString();
}

TEST_F(PromptFixture, OpenAnywayLoadsEveryRankWithoutTheCheck)
{
    window.openPath(TwoRanks);
    ASSERT_TRUE(waitFor([&] { return prompt(window) != nullptr; }));
    buttonNamed(prompt(window), QStringLiteral("Open Anyway"))->click();
    ASSERT_TRUE(waitFor([&] { return window.session() != nullptr; }));
    EXPECT_EQ(window.session()->traces.size(), 2u);
    EXPECT_EQ(window.profile().options.checkMemory, false);
}

TEST_F(PromptFixture, CancelLoadsNothing)
{
    window.openPath(TwoRanks);
    ASSERT_TRUE(waitFor([&] { return prompt(window) != nullptr; }));
    QMessageBox *box = prompt(window);
    box->button(QMessageBox::Cancel)->click();
    ASSERT_TRUE(waitFor([&] { return prompt(window) == nullptr; }, 2000));
    EXPECT_FALSE(window.loader()->isRunning());
    EXPECT_FALSE(window.session());
}

TEST(MemoryPrompt, ASingleRankIsOfferedOnlyTheLoadAnyway)
{
    import::MemoryBudget budget;
    budget.ranks = {{0, 100, 50, 90}};
    budget.availableBytes = 10;
    QWidget parent;
    int chosen = 0;
    QMessageBox *box = askWhatToOpen(
        &parent, QStringLiteral("/x/trace.json"), budget, {}, [&](const import::LoadOptions &o) {
            ++chosen;
            EXPECT_FALSE(o.checkMemory);
        });
    EXPECT_EQ(buttonNamed(box, QStringLiteral("Open Rank")), nullptr);
    EXPECT_TRUE(box->informativeText().startsWith(QStringLiteral("It is a single rank")));
    EXPECT_EQ(box->defaultButton(), box->button(QMessageBox::Cancel));
    buttonNamed(box, QStringLiteral("Open Anyway"))->click();
    EXPECT_EQ(chosen, 1);
}

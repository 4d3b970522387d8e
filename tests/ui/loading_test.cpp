// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "timeline_testsupport.h"
#include "ui/loading/loadprogressdialog.h"
#include "ui/loading/profileloader.h"

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QElapsedTimer>

#include <atomic>
#include <chrono>
#include <thread>

using namespace stepscope;
using namespace stepscope::ui;

namespace {

/// Processes events until `done` or the timeout.
template <typename Pred> bool waitFor(Pred done, int timeoutMs = 10000)
{
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < timeoutMs) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return done();
}

/// A load that reports progress, then blocks until cancelled (or returns a session).
import::LoadResult slowLoad(util::Progress &progress, bool block){
    progress.setTotal(2 * 1024 * 1024);
progress.setStage("Reading trace.json");
progress.advance(1024 * 1024);
while (block && !progress.isCancelled())
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
import::LoadResult r;
if (progress.isCancelled()) {
    r.cancelled = true;
    return r;
}
r.session = testsupport::makeSession(100, 100, 100, 10);
return r;
} // namespace

/// What a loader emitted (QtTest's QSignalSpy is not linked into ui_tests).
struct Recorder
{
    explicit Recorder(ProfileLoader &loader)
    {
        QObject::connect(&loader, &ProfileLoader::loaded,
            [this](quint64 g, const LoadedProfile &p) { loaded.emplace_back(g, p); });
        QObject::connect(
            &loader, &ProfileLoader::cancelled, [this](quint64 g) { cancelled.push_back(g); });
        QObject::connect(&loader, &ProfileLoader::progressChanged,
            [this](quint64, const QString &stage, quint64, quint64) { stages.push_back(stage); });
    }
    std::vector<std::pair<quint64, LoadedProfile>> loaded;
    std::vector<quint64> cancelled;
    std::vector<QString> stages;
};

} // namespace

TEST(Loading, DeliversOneResultOffTheGuiThread)
{
    ProfileLoader loader;
    std::atomic<bool> onGuiThread {true};
    const auto gui = std::this_thread::get_id();
    loader.setLoadFunction([&](const QString &, util::Progress &p, const import::LoadOptions &) {
        onGuiThread = std::this_thread::get_id() == gui;
        return slowLoad(p, false);
    });
    Recorder rec(loader);
    const quint64 gen = loader.start(QStringLiteral("/some/profile"));
    EXPECT_TRUE(loader.isRunning());
    ASSERT_TRUE(waitFor([&] { return rec.loaded.size() > 0; }));
    loader.waitForIdle();
    QCoreApplication::processEvents();
    EXPECT_FALSE(onGuiThread);
    EXPECT_EQ(rec.loaded.size(), 1u);
    EXPECT_EQ(rec.cancelled.size(), 0u);
    EXPECT_GE(rec.stages.size(), 1u);
    EXPECT_EQ(rec.loaded.at(0).first, gen);
    const auto profile = rec.loaded.at(0).second;
    ASSERT_TRUE(profile.session);
    ASSERT_TRUE(profile.timeline); // built on the worker too
    EXPECT_EQ(profile.timeline->eventCount(), profile.session->eventCount());
    EXPECT_FALSE(loader.isRunning());
}

TEST(Loading, ANewLoadDropsTheStaleResult)
{
    ProfileLoader loader;
    loader.setLoadFunction(
        [&](const QString &path, util::Progress &p, const import::LoadOptions &) {
            // The first load ignores cancellation for a while and then returns a full result
            // anyway: it must still be dropped as stale.
            if (path == QStringLiteral("first")) {
                std::this_thread::sleep_for(std::chrono::milliseconds(150));
                import::LoadResult r;
                r.session = testsupport::makeSession(10, 100, 100);
                return r;
            }
            return slowLoad(p, false);
        });
    Recorder rec(loader);
    const quint64 first = loader.start(QStringLiteral("first"));
    const quint64 second = loader.start(QStringLiteral("second"));
    EXPECT_GT(second, first);
    ASSERT_TRUE(waitFor([&] { return rec.loaded.size() > 0; }));
    loader.waitForIdle();
    for (int i = 0; i < 10; ++i)
        QCoreApplication::processEvents();
    ASSERT_EQ(rec.loaded.size(), 1u);
    EXPECT_EQ(rec.cancelled.size(), 0u);
    EXPECT_EQ(rec.loaded.at(0).first, second);
    EXPECT_EQ(rec.loaded.at(0).second.path, QStringLiteral("second"));
}

TEST(Loading, CancelStopsPromptlyAndIsNotAResult)
{
    ProfileLoader loader;
    loader.setLoadFunction([](const QString &, util::Progress &p, const import::LoadOptions &) {
        return slowLoad(p, true);
    });
    Recorder rec(loader);
    loader.start(QStringLiteral("x"));
    ASSERT_TRUE(waitFor([&] { return rec.stages.size() > 0; }));
    EXPECT_EQ(rec.stages.at(0), QStringLiteral("Reading trace.json"));
    QElapsedTimer t;
    t.start();
    loader.cancel();
    ASSERT_TRUE(waitFor([&] { return rec.cancelled.size() > 0; }, 2000));
    EXPECT_LT(t.elapsed(), 1000);
    EXPECT_EQ(rec.loaded.size(), 0u);
    EXPECT_EQ(rec.cancelled.size(), 1u);
}

TEST(Loading, DestroyingTheLoaderWhileLoadingIsSafe)
{
    auto loader = std::make_unique<ProfileLoader>();
    loader->setLoadFunction([](const QString &, util::Progress &p, const import::LoadOptions &) {
        return slowLoad(p, true);
    });
    loader->start(QStringLiteral("x"));
    loader.reset(); // cancels and waits
    QCoreApplication::processEvents();
    SUCCEED();
}

TEST(Loading, ProgressDialogShowsStageBytesAndTimeLeft)
{
    EXPECT_EQ(LoadProgressDialog::formatBytesDone(1024 * 1024, 2 * 1024 * 1024),
        QStringLiteral("1.00 MiB of 2.00 MiB"));
    EXPECT_EQ(LoadProgressDialog::formatTimeLeft(2000, 1, 2), QStringLiteral("about 2 s left"));
    EXPECT_EQ(LoadProgressDialog::formatTimeLeft(60000, 1, 4), QStringLiteral("about 3 min left"));
    EXPECT_TRUE(LoadProgressDialog::formatTimeLeft(100, 1, 2).isEmpty()); // too early to tell
    LoadProgressDialog dialog;
    dialog.begin(QStringLiteral("/data/run"));
    dialog.setProgress(QStringLiteral("Reading trace_view.json"), 512, 1024);
    EXPECT_EQ(dialog.stageText(), QStringLiteral("Reading trace_view.json"));
    EXPECT_TRUE(dialog.bytesText().startsWith(QStringLiteral("512 B of 1.00 KiB")));
    EXPECT_FALSE(dialog.isBusy());
    // The analysis after the read has no byte count: a busy bar, not "1 B of 1 B".
    dialog.setProgress(QStringLiteral("Preparing the timeline"), 0, 0);
    EXPECT_TRUE(dialog.isBusy());
    EXPECT_TRUE(dialog.bytesText().isEmpty());
    dialog.setProgress(QStringLiteral("Reading b.json"), 10, 20);
    EXPECT_FALSE(dialog.isBusy());
    int cancel = 0;
    QObject::connect(&dialog, &LoadProgressDialog::cancelRequested, [&] { ++cancel; });
    dialog.reject(); // Escape
    EXPECT_EQ(cancel, 1);
}

TEST(Loading, PreparingStopsAtACancelledToken)
{
    auto session = std::const_pointer_cast<model::Session>(testsupport::makeSession(700, 100, 100));
    util::CancelToken token;
    const LoadedProfile ready =
        prepareProfile(QStringLiteral("x"), session, std::nullopt, true, &token);
    EXPECT_TRUE(ready.analysis);
    EXPECT_TRUE(ready.timeline);
    token.cancel();
    EXPECT_THROW(
        prepareProfile(QStringLiteral("x"), session, std::nullopt, true, &token), util::Cancelled);
}

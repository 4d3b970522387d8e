// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "comparedata.h"

#include <QObject>
#include <QString>

#include <memory>

class QWidget;

namespace stepscope::ui {
class ProfileLoader;
}

namespace stepscope::ui::compare {

class CompareView;

/// Loads two profiles in the background (two ProfileLoaders, STYLE.md §3), then builds the
/// CompareData off the GUI thread and emits ready() once. A new start() replaces the
/// previous pair (its results are dropped). GUI thread only.
class CompareLoader : public QObject
{
    Q_OBJECT

public:
    explicit CompareLoader(QObject *parent = nullptr);
    ~CompareLoader() override;

    /// `ranks`: which rank of each run the CompareData compares (empty: the slowest).
    void start(const QString &beforePath, const QString &afterPath, CompareRanks ranks = {});
    void cancel();
    bool isRunning() const { return m_running; }
    /// Blocks until ready() or failed() was emitted (tests, headless report). Returns the data.
    std::shared_ptr<const CompareData> waitForResult(int timeoutMs = 120000);

signals:
    void progressChanged(const QString &text);
    void ready(std::shared_ptr<const stepscope::ui::compare::CompareData> data);
    void failed(const QString &message);

private:
    void profileLoaded(bool afterSide, const LoadedProfile &profile);

    ProfileLoader *m_before = nullptr;
    ProfileLoader *m_after = nullptr;
    std::optional<LoadedProfile> m_beforeProfile;
    std::optional<LoadedProfile> m_afterProfile;
    std::shared_ptr<const CompareData> m_result;
    CompareRanks m_ranks;
    quint64 m_generation = 0;
    bool m_running = false;
};

/// What the app calls to open a pair (File › Compare…, `stepscope BEFORE AFTER`, dropping
/// a second profile): a CompareView that shows "Loading…" and fills itself when both runs
/// are loaded and analysed. The caller puts it in the centre of the main window.
CompareView *openComparePair(const QString &beforePath, const QString &afterPath,
    QWidget *parent = nullptr, CompareRanks ranks = {});

} // namespace stepscope::ui::compare

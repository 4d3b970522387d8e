// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "analysis/analysissummary.h"
#include "import/loader.h"
#include "model/session.h"
#include "ui/timeline/timelinemodel.h"
#include "util/progress.h"

#include <QFuture>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace stepscope::ui {

/// What a finished load hands to the GUI: the immutable session, its analysis (one
/// analyzeSession per load, with the stepscope.json found beside the profile) and the
/// timeline's view of it (lanes, LOD summaries, the analysis' step lane), all built off the
/// GUI thread.
struct LoadedProfile
{
    QString path;
    std::shared_ptr<const model::Session> session;
    std::shared_ptr<const analysis::SessionAnalysis> analysis;
    std::shared_ptr<const timeline::TimelineModel> timeline;
    qint64 elapsedMs = 0;
    /// The options it was loaded with (the ranks asked for, the memory check).
    import::LoadOptions options;
    /// Set when the memory budget refused the load (the session then holds only the reason):
    /// the window offers the ranks that fit or a load without the check.
    std::optional<import::MemoryBudget> refused;
};

/// What the loader's worker does after import::loadPath, callable from any thread (the CLI
/// calls it too): reads the run config beside `path` (analysis::findRunConfig; `config`
/// overrides it when given), analyses the session once and, with `withTimeline`, builds the
/// TimelineModel from that analysis. `session` must not be null.
/// With `cancel`, throws util::Cancelled at the analysis' checks and before the timeline.
LoadedProfile prepareProfile(const QString &path, std::shared_ptr<const model::Session> session,
    const std::optional<analysis::RunConfig> &config = std::nullopt, bool withTimeline = true,
    const util::CancelToken *cancel = nullptr);

/// Loads profiles in the background (STYLE.md §3): a worker thread (QtConcurrent) calls
/// import::loadPath with a util::Progress and util::CancelToken, then prepareProfile (the
/// analysis and the TimelineModel). Each start() gets a new generation number and cancels the
/// previous job; a job's progress and result reach the GUI thread through queued calls and are
/// dropped when their generation is no longer current. For the current generation exactly one of
/// loaded() or cancelled() is emitted. The GUI never sees a half-built model.
///
/// Thread affinity: GUI thread. The destructor cancels running jobs and waits for them.
class ProfileLoader : public QObject
{
    Q_OBJECT

public:
    using LoadFunction = std::function<import::LoadResult(
        const QString &path, util::Progress &progress, const import::LoadOptions &options)>;

    explicit ProfileLoader(QObject *parent = nullptr);
    ~ProfileLoader() override;

    /// Replaces import::loadPath (tests use a slow or blocking function).
    void setLoadFunction(LoadFunction function) { m_load = std::move(function); }

    /// Starts loading `path` with `options`, cancelling the current job. Returns the new
    /// generation.
    quint64 start(const QString &path, const import::LoadOptions &options = {});
    /// Cancels the current job; cancelled() follows once the worker returned.
    void cancel();
    bool isRunning() const { return m_running; }
    quint64 generation() const { return m_generation; }
    /// Waits for every worker (tests, shutdown).
    void waitForIdle();

signals:
    void progressChanged(quint64 generation, const QString &stage, quint64 done, quint64 total);
    void loaded(quint64 generation, const stepscope::ui::LoadedProfile &profile);
    void cancelled(quint64 generation);

private:
    void deliver(quint64 generation, LoadedProfile profile, bool wasCancelled);

    LoadFunction m_load;
    quint64 m_generation = 0;
    bool m_running = false;
    std::shared_ptr<util::CancelToken> m_token;
    std::vector<QFuture<void>> m_jobs;
};

} // namespace stepscope::ui

Q_DECLARE_METATYPE(stepscope::ui::LoadedProfile)

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "profileloader.h"

#include <QElapsedTimer>
#include <QMetaObject>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace stepscope::ui {

LoadedProfile prepareProfile(const QString &path, std::shared_ptr<const model::Session> session,
    const std::optional<analysis::RunConfig> &config, bool withTimeline,
    const util::CancelToken *cancel)
{
    LoadedProfile profile;
    profile.path = path;
    profile.session = std::move(session);
    analysis::RunConfig runConfig;
    if (config) {
        runConfig = *config;
    } else if (const auto found = analysis::findRunConfig(path.toStdString())) {
        model::LoadReport ignored; // the run-config dialog shows what it could read
        runConfig = analysis::loadRunConfig(*found, &ignored);
    }
    profile.analysis = std::make_shared<const analysis::SessionAnalysis>(
        analysis::analyzeSession(*profile.session, runConfig, cancel));
    if (cancel != nullptr && cancel->isCancelled())
        throw util::Cancelled {};
    if (withTimeline)
        profile.timeline = timeline::TimelineModel::build(profile.session, true, profile.analysis);
    return profile;
}

ProfileLoader::ProfileLoader(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<LoadedProfile>();
    m_load = [](const QString &path, util::Progress &progress, const import::LoadOptions &options) {
        return import::loadPath(std::filesystem::u8path(path.toStdString()), progress, options);
    };
}

ProfileLoader::~ProfileLoader()
{
    if (m_token)
        m_token->cancel();
    waitForIdle();
}

void ProfileLoader::waitForIdle()
{
    for (QFuture<void> &job : m_jobs)
        job.waitForFinished();
    m_jobs.clear();
}

quint64 ProfileLoader::start(const QString &path, const import::LoadOptions &options)
{
    if (m_token)
        m_token->cancel(); // the old job's result will be stale anyway: let it stop early
    m_jobs.erase(std::remove_if(m_jobs.begin(), m_jobs.end(),
                     [](const QFuture<void> &f) { return f.isFinished(); }),
        m_jobs.end());
    const quint64 generation = ++m_generation;
    m_running = true;
    auto token = std::make_shared<util::CancelToken>();
    m_token = token;
    LoadFunction load = m_load;
    // `this` outlives the job: the destructor waits for every job before members go away.
    m_jobs.push_back(QtConcurrent::run([this, path, options, generation, token, load] {
        QElapsedTimer timer;
        timer.start();
        util::Progress progress(
            [this, generation](const std::string &stage, std::uint64_t done, std::uint64_t total) {
                const QString s = QString::fromStdString(stage);
                QMetaObject::invokeMethod(
                    this,
                    [this, generation, s, done, total] {
                        if (generation == m_generation)
                            emit progressChanged(generation, s, done, total);
                    },
                    Qt::QueuedConnection);
            },
            token.get());
        LoadedProfile profile;
        profile.path = path;
        bool wasCancelled = false;
        try {
            import::LoadResult result = load(path, progress, options);
            wasCancelled = result.cancelled || token->isCancelled();
            if (!wasCancelled && result.refused) {
                // Nothing was read: no analysis, no timeline; the window asks what to open.
                profile.session = result.session;
                profile.refused = std::move(result.refused);
            } else if (!wasCancelled && result.session) {
                QMetaObject::invokeMethod(
                    this,
                    [this, generation] {
                        if (generation == m_generation)
                            emit progressChanged(generation, tr("Preparing the timeline"), 0, 0);
                    },
                    Qt::QueuedConnection);
                profile = prepareProfile(path, result.session, std::nullopt, true, token.get());
                wasCancelled = token->isCancelled();
            }
        } catch (const util::Cancelled &) {
            wasCancelled = true;
        } catch (const std::exception &e) {
            // loadPath never throws; a failure here is a bug, but the GUI must survive it.
            auto session = std::make_shared<model::Session>();
            session->rootPath = path.toStdString();
            session->report.add(model::Severity::Error, path.toStdString(),
                std::string("internal error while loading: ") + e.what());
            profile = prepareProfile(path, session);
        }
        if (wasCancelled) {
            profile.session.reset();
            profile.analysis.reset();
            profile.timeline.reset();
        }
        profile.elapsedMs = timer.elapsed();
        profile.options = options;
        QMetaObject::invokeMethod(
            this,
            [this, generation, profile, wasCancelled] {
                deliver(generation, profile, wasCancelled);
            },
            Qt::QueuedConnection);
    }));
    return generation;
}

void ProfileLoader::cancel()
{
    if (m_token)
        m_token->cancel();
}

void ProfileLoader::deliver(quint64 generation, LoadedProfile profile, bool wasCancelled)
{
    if (generation != m_generation)
        return; // a newer load replaced this one
    m_running = false;
    m_token.reset();
    if (wasCancelled || !profile.session)
        emit cancelled(generation);
    else
        emit loaded(generation, profile);
}

} // namespace stepscope::ui

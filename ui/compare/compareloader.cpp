// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "compareloader.h"

#include "compareview.h"
#include "ui/loading/profileloader.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFutureWatcher>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

namespace stepscope::ui::compare {

CompareLoader::CompareLoader(QObject *parent)
    : QObject(parent)
    , m_before(new ProfileLoader(this))
    , m_after(new ProfileLoader(this))
{
    connect(m_before, &ProfileLoader::loaded, this,
        [this](quint64, const LoadedProfile &p) { profileLoaded(false, p); });
    connect(m_after, &ProfileLoader::loaded, this,
        [this](quint64, const LoadedProfile &p) { profileLoaded(true, p); });
    auto onCancel = [this](quint64) {
        if (m_running) {
            m_running = false;
            emit failed(tr("Loading was cancelled."));
        }
    };
    connect(m_before, &ProfileLoader::cancelled, this, onCancel);
    connect(m_after, &ProfileLoader::cancelled, this, onCancel);
    connect(m_before, &ProfileLoader::progressChanged, this,
        [this](quint64, const QString &stage, quint64, quint64) {
            emit progressChanged(tr("before: ") + stage);
        });
    connect(m_after, &ProfileLoader::progressChanged, this,
        [this](quint64, const QString &stage, quint64, quint64) {
            emit progressChanged(tr("after: ") + stage);
        });
}

CompareLoader::~CompareLoader()
{
    m_before->cancel();
    m_after->cancel();
    m_before->waitForIdle();
    m_after->waitForIdle();
}

void CompareLoader::start(const QString &beforePath, const QString &afterPath, CompareRanks ranks)
{
    m_ranks = ranks;
    ++m_generation;
    m_beforeProfile.reset();
    m_afterProfile.reset();
    m_result.reset();
    m_running = true;
    m_before->start(beforePath);
    m_after->start(afterPath);
}

void CompareLoader::cancel()
{
    m_before->cancel();
    m_after->cancel();
}

void CompareLoader::profileLoaded(bool afterSide, const LoadedProfile &profile)
{
    (afterSide ? m_afterProfile : m_beforeProfile) = profile;
    if (!m_beforeProfile || !m_afterProfile)
        return;
    for (const auto *p : {&*m_beforeProfile, &*m_afterProfile}) {
        if (p->refused) {
            m_running = false;
            emit failed(tr("%1 was not opened: %2")
                            .arg(p->path,
                                QString::fromStdString(import::memoryBudgetMessage(*p->refused))));
            return;
        }
        if (!p->session || !p->session->hasContent()) {
            m_running = false;
            emit failed(tr("Nothing usable was found in %1.").arg(p->path));
            return;
        }
    }
    emit progressChanged(tr("analysing both runs"));
    const quint64 generation = m_generation;
    auto *watcher = new QFutureWatcher<std::shared_ptr<const CompareData>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != m_generation)
            return; // a newer pair replaced this one
        m_result = watcher->result();
        m_running = false;
        emit ready(m_result);
    });
    watcher->setFuture(QtConcurrent::run([b = *m_beforeProfile, a = *m_afterProfile, r = m_ranks] {
        return CompareData::build(b, a, true, r);
    }));
}

std::shared_ptr<const CompareData> CompareLoader::waitForResult(int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (m_running && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    return m_result;
}

CompareView *openComparePair(
    const QString &beforePath, const QString &afterPath, QWidget *parent, CompareRanks ranks)
{
    auto *view = new CompareView(parent);
    auto *loader = new CompareLoader(view);
    view->setMessage(QObject::tr("Loading %1 and %2…").arg(beforePath, afterPath));
    QObject::connect(loader, &CompareLoader::progressChanged, view,
        [view, beforePath, afterPath](const QString &stage) {
            view->setMessage(
                QObject::tr("Loading %1 and %2…\n%3").arg(beforePath, afterPath, stage));
        });
    QObject::connect(
        loader, &CompareLoader::ready, view, [view](std::shared_ptr<const CompareData> data) {
            view->setData(std::move(data));
            emit view->loadFinished(true);
        });
    QObject::connect(loader, &CompareLoader::failed, view, [view](const QString &m) {
        view->setMessage(m);
        emit view->loadFinished(false);
    });
    loader->start(beforePath, afterPath, ranks);
    return view;
}

} // namespace stepscope::ui::compare

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// TimelineView's selection, search, lane visibility and picture: what the view shows on
// request (timelineview.cpp holds its input handling and painting).
#include "geometrybuilder.h"
#include "timelineview.h"

#include <QFutureWatcher>
#include <QGuiApplication>
#include <QPainter>
#include <QScrollBar>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cstdlib>

namespace stepscope::ui::timeline {

void TimelineView::selectEvent(std::optional<EventKey> event, bool reveal)
{
    if (event && !event->isValid())
        event.reset();
    m_view.selected = event;
    computeFlows();
    if (event && reveal)
        revealEvent(*event);
    viewport()->update();
    emit eventSelected(event ? *event : EventKey {});
}

void TimelineView::computeFlows()
{
    m_view.selectedFlows.clear();
    if (!m_model || !m_view.selected)
        return;
    const EventKey &e = *m_view.selected;
    const model::Trace &trace = m_model->trace(e.traceIndex);
    const model::EventRef self {model::TrackId(static_cast<std::uint32_t>(e.trackIndex)), e.index};
    for (const model::Flow &f : trace.flows) {
        if (f.from != self && f.to != self)
            continue;
        m_view.selectedFlows.push_back(
            {EventKey {e.traceIndex, static_cast<int>(f.from.track.value()), f.from.index},
                EventKey {e.traceIndex, static_cast<int>(f.to.track.value()), f.to.index}});
    }
}

void TimelineView::revealEvent(const EventKey &e)
{
    // Expand the groups holding the event, bring it into the window, scroll its lane into view.
    const int laneIndex = m_model->laneOfTrack(e.traceIndex, e.trackIndex);
    if (laneIndex < 0)
        return;
    const Lane &lane = m_model->lanes()[static_cast<std::size_t>(laneIndex)];
    m_view.collapsed.remove(lane.rankKey);
    m_view.collapsed.remove(lane.parentKey);
    m_view.hidden.remove(lane.key);
    const std::int64_t s = m_model->startOf(e);
    const std::int64_t en = m_model->endOf(e);
    if (en < m_view.axis.startNs() || s > m_view.axis.endNs()) {
        pushUndo();
        m_view.axis.centreOn(s + (en - s) / 2);
    }
    updateScrollBar();
    // Scroll so the lane is visible: find its content y.
    int contentY = 0;
    for (std::size_t i = 0; i < m_model->lanes().size(); ++i) {
        const Lane &l = m_model->lanes()[i];
        if (!laneShown(l, m_view) || m_view.pinned.contains(l.key))
            continue;
        if (static_cast<int>(i) == laneIndex)
            break;
        contentY += laneHeight(l, m_metrics);
    }
    if (!m_view.pinned.contains(lane.key)) {
        const LaneLayout layout = layoutLanes(*m_model, m_view, m_metrics, canvasSize());
        const int visible = layout.scrollBottom - layout.scrollTop;
        const int rowY =
            contentY + static_cast<int>(m_model->track(e).row(e.index)) * m_metrics.rowHeight;
        if (rowY < m_view.scrollY || rowY + m_metrics.rowHeight > m_view.scrollY + visible)
            verticalScrollBar()->setValue(std::max(0, rowY - visible / 3));
    }
    changed();
}

void TimelineView::zoomToSmallMatch(const EventKey &e)
{
    if (!m_model)
        return;
    const std::int64_t s = m_model->startOf(e);
    const std::int64_t duration = std::max<std::int64_t>(1, m_model->endOf(e) - s);
    if (m_view.axis.toPxLength(duration) >= 3)
        return;
    // The hit gets about 40 px, centred; at most the zoom the axis allows.
    const std::int64_t span =
        std::max<std::int64_t>(duration * std::max(1, m_view.axis.widthPx() / 40), 10);
    const std::int64_t middle = s + duration / 2;
    pushUndo();
    m_view.axis.fit(middle - span / 2, middle - span / 2 + span);
    updateScrollBar();
    changed();
}

void TimelineView::setRange(std::optional<std::pair<std::int64_t, std::int64_t>> range)
{
    m_view.range = range;
    viewport()->update();
    if (range)
        emit rangeSelected(range->first, range->second);
    else
        emit rangeCleared();
}

int TimelineView::setSearchText(const QString &text)
{
    ++m_searchGeneration; // a search still running no longer applies
    m_searchRunning = false;
    m_pendingMatchSteps = 0;
    m_searchText = text;
    if (!m_model || text.isEmpty()) {
        m_view.searchMatches.reset();
        m_view.currentMatch = -1;
        viewport()->update();
        emit searchChanged(0, -1);
        return 0;
    }
    m_view.searchMatches = std::make_shared<const std::vector<EventKey>>(m_model->search(text));
    m_view.currentMatch = -1;
    viewport()->update();
    const int n = matchCount();
    emit searchChanged(n, -1);
    return n;
}

void TimelineView::startSearch(const QString &text)
{
    if (!m_model || text.isEmpty()) {
        setSearchText(text);
        return;
    }
    const quint64 generation = ++m_searchGeneration;
    m_searchText = text;
    m_searchRunning = true;
    m_pendingMatchSteps = 0;
    m_view.searchMatches.reset();
    m_view.currentMatch = -1;
    viewport()->update();
    emit searchChanged(-1, -1);
    auto *watcher = new QFutureWatcher<std::vector<EventKey>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != m_searchGeneration)
            return; // a newer search or model replaced this one
        m_searchRunning = false;
        m_view.searchMatches = std::make_shared<const std::vector<EventKey>>(watcher->result());
        m_view.currentMatch = -1;
        viewport()->update();
        emit searchChanged(matchCount(), -1);
        const int steps = m_pendingMatchSteps;
        m_pendingMatchSteps = 0;
        for (int i = 0; i < std::abs(steps); ++i)
            steps > 0 ? nextMatch() : previousMatch();
    });
    // The model is immutable and shared: the worker keeps it alive whatever the view does.
    watcher->setFuture(QtConcurrent::run([model = m_model, text] { return model->search(text); }));
}

int TimelineView::matchCount() const
{
    return m_view.searchMatches ? static_cast<int>(m_view.searchMatches->size()) : 0;
}

void TimelineView::nextMatch()
{
    if (m_searchRunning) {
        ++m_pendingMatchSteps;
        return;
    }
    const int n = matchCount();
    if (n == 0)
        return;
    if (m_view.currentMatch < 0) {
        // The first match at or after the window start.
        const auto &m = *m_view.searchMatches;
        const std::int64_t t = m_view.axis.startNs();
        auto it = std::lower_bound(m.begin(), m.end(), t,
            [this](const EventKey &e, std::int64_t v) { return m_model->startOf(e) < v; });
        m_view.currentMatch = it == m.end() ? 0 : static_cast<int>(it - m.begin());
    } else {
        m_view.currentMatch = (m_view.currentMatch + 1) % n;
    }
    selectEvent((*m_view.searchMatches)[static_cast<std::size_t>(m_view.currentMatch)], true);
    zoomToSmallMatch((*m_view.searchMatches)[static_cast<std::size_t>(m_view.currentMatch)]);
    emit searchChanged(n, m_view.currentMatch);
}

void TimelineView::previousMatch()
{
    if (m_searchRunning) {
        --m_pendingMatchSteps;
        return;
    }
    const int n = matchCount();
    if (n == 0)
        return;
    m_view.currentMatch = m_view.currentMatch <= 0 ? n - 1 : m_view.currentMatch - 1;
    selectEvent((*m_view.searchMatches)[static_cast<std::size_t>(m_view.currentMatch)], true);
    zoomToSmallMatch((*m_view.searchMatches)[static_cast<std::size_t>(m_view.currentMatch)]);
    emit searchChanged(n, m_view.currentMatch);
}

void TimelineView::setCollapsed(const QString &key, bool collapsed)
{
    if (collapsed)
        m_view.collapsed.insert(key);
    else
        m_view.collapsed.remove(key);
    updateScrollBar();
    viewport()->update();
}

void TimelineView::setPinned(const QString &key, bool pinned)
{
    m_view.pinned.removeAll(key);
    if (pinned)
        m_view.pinned.append(key);
    updateScrollBar();
    viewport()->update();
}

void TimelineView::setHidden(const QString &key, bool hidden)
{
    if (hidden)
        m_view.hidden.insert(key);
    else
        m_view.hidden.remove(key);
    updateScrollBar();
    viewport()->update();
}

void TimelineView::showAllLanes()
{
    m_view.hidden.clear();
    updateScrollBar();
    viewport()->update();
}

QImage TimelineView::renderImage(QSize size, qreal devicePixelRatio) const
{
    QImage image(size * devicePixelRatio, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(devicePixelRatio);
    image.fill(m_view.colors.background);
    if (!m_model)
        return image;
    ViewState view = m_view;
    view.axis.setWidth(std::max(1, size.width() - m_metrics.headerWidth));
    // Same window of time, re-spread over the export width.
    view.axis.fit(m_view.axis.startNs(), m_view.axis.endNs());
    QPainter painter(&image);
    paintTimeline(painter, *m_model, view, size, m_metrics, font());
    return image;
}

} // namespace stepscope::ui::timeline

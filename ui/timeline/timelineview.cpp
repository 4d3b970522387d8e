// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "timelineview.h"

#include "geometrybuilder.h"
#include "lanelayout.h"

#include <QGuiApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace stepscope::ui::timeline {

namespace {

constexpr double KeyZoomFactor = 1.35;
constexpr double KeyPanFraction = 0.15;
constexpr std::size_t UndoDepth = 100;

} // namespace

TimelineView::TimelineView(QWidget *parent)
    : QAbstractScrollArea(parent)
{
    setObjectName(QStringLiteral("timelineView"));
    setFocusPolicy(Qt::StrongFocus);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    viewport()->setMouseTracking(true);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    m_keyPlatform = keyPlatformFor(QGuiApplication::platformName());
    applyPalette();
    m_view.axis = TimeAxis(0, 1000, std::max(1, viewport()->width() - m_metrics.headerWidth));
}

TimelineView::~TimelineView() = default;

void TimelineView::applyPalette()
{
    const QPalette p = palette();
    m_view.theme = currentTheme();
    m_view.colors.text = p.color(QPalette::WindowText);
    m_view.colors.mutedText = p.color(QPalette::PlaceholderText);
    m_view.colors.background = p.color(QPalette::Base);
    m_view.colors.headerBackground = p.color(QPalette::Window);
    m_view.colors.stripe = p.color(QPalette::AlternateBase);
    QColor grid = p.color(QPalette::Mid);
    grid.setAlpha(90);
    m_view.colors.grid = grid;
}

QSize TimelineView::canvasSize() const
{
    return viewport()->size();
}

void TimelineView::setModel(std::shared_ptr<const TimelineModel> model)
{
    m_model = std::move(model);
    m_view.selected.reset();
    m_view.selectedFlows.clear();
    m_view.range.reset();
    m_view.searchMatches.reset();
    m_view.currentMatch = -1;
    m_view.hovered.reset();
    m_view.collapsed.clear();
    m_view.hidden.clear();
    m_view.pinned.clear();
    m_view.scrollY = 0;
    // The ruler reads from the first event, never from an epoch timestamp (compare mode
    // moves it to the aligned step).
    m_view.rulerOriginNs = m_model ? m_model->extent().first : 0;
    m_undo.clear();
    m_view.axis.setBreaks(m_model && m_gapBreaks ? m_model->breaks() : nullptr);
    if (!m_searchText.isEmpty())
        startSearch(m_searchText);
    // Before the first layout the viewport is a few pixels wide: fit once it has a real size.
    m_fitPending = viewport()->width() <= m_metrics.headerWidth + 16;
    fitAll();
    m_undo.clear();
}

void TimelineView::setClockVariant(std::shared_ptr<const TimelineModel> model)
{
    if (!m_model || !model || model->lanes().size() != m_model->lanes().size()) {
        setModel(std::move(model));
        return;
    }
    m_model = std::move(model);
    m_view.hovered.reset();
    if (m_view.axis.hasBreaks())
        m_view.axis.setBreaks(m_model->breaks());
    if (!m_searchText.isEmpty())
        startSearch(m_searchText);
    viewport()->update();
}

void TimelineView::setGapBreaks(bool on)
{
    m_gapBreaks = on;
    m_view.axis.setBreaks(m_model && on ? m_model->breaks() : nullptr);
    fitAll();
}

Geometry TimelineView::currentGeometry() const
{
    if (!m_model)
        return {};
    return buildGeometry(*m_model, m_view, canvasSize(), m_metrics, font());
}

void TimelineView::paintEvent(QPaintEvent *)
{
    QPainter painter(viewport());
    if (!m_model) {
        painter.fillRect(viewport()->rect(), m_view.colors.background);
        return;
    }
    const auto t0 = std::chrono::steady_clock::now();
    paintGeometry(
        painter, buildGeometry(*m_model, m_view, canvasSize(), m_metrics, font()), font());
    m_lastPaintMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void TimelineView::resizeEvent(QResizeEvent *event)
{
    QAbstractScrollArea::resizeEvent(event);
    // Keep the same window of time across the new width (the first layout of a freshly
    // loaded profile then still shows all of it).
    const std::int64_t t0 = m_view.axis.startNs();
    const std::int64_t t1 = m_view.axis.endNs();
    m_view.axis.setWidth(std::max(1, viewport()->width() - m_metrics.headerWidth));
    m_view.axis.fit(t0, t1);
    if (m_fitPending && m_model && viewport()->width() > m_metrics.headerWidth + 16) {
        m_fitPending = false;
        fitAll();
        m_undo.clear();
    }
    for (TimeAxis &a : m_undo)
        a.setWidth(m_view.axis.widthPx());
    updateScrollBar();
}

void TimelineView::updateScrollBar()
{
    if (!m_model) {
        verticalScrollBar()->setRange(0, 0);
        return;
    }
    const LaneLayout layout = layoutLanes(*m_model, m_view, m_metrics, canvasSize());
    const int visible = std::max(0, layout.scrollBottom - layout.scrollTop);
    const int maxScroll = std::max(0, layout.contentHeight - visible);
    verticalScrollBar()->setRange(0, maxScroll);
    verticalScrollBar()->setPageStep(std::max(1, visible));
    verticalScrollBar()->setSingleStep(m_metrics.rowHeight * 2);
    m_view.scrollY = std::clamp(m_view.scrollY, 0, maxScroll);
    if (verticalScrollBar()->value() != m_view.scrollY)
        verticalScrollBar()->setValue(m_view.scrollY);
}

void TimelineView::scrollContentsBy(int, int)
{
    m_view.scrollY = verticalScrollBar()->value();
    viewport()->update();
}

void TimelineView::changed()
{
    clampAxis();
    viewport()->update();
    emit viewChanged();
}

void TimelineView::clampAxis()
{
    if (!m_model)
        return;
    // Keep some of the trace in view: the window may not drift beyond the data by more
    // than its own width.
    const auto [lo, hi] = m_model->extent();
    const std::int64_t span = m_view.axis.spanNs();
    const std::int64_t maxSpan = std::max<std::int64_t>(1, (hi - lo) * 4);
    if (span > maxSpan) {
        const double centre = m_view.axis.widthPx() / 2.0;
        m_view.axis.zoomAt(centre, static_cast<double>(span) / static_cast<double>(maxSpan));
    }
    // Half a window of drift, measured on screen: with axis breaks the window's span in
    // real time includes the gaps, which let a pan run that far into empty time.
    const std::int64_t s = m_view.axis.startNs();
    TimeAxis probe = m_view.axis;
    probe.centreOn(lo);
    const std::int64_t minStart = probe.startNs();
    probe.centreOn(hi);
    const std::int64_t maxStart = probe.startNs();
    m_view.axis.setStart(std::clamp(s, std::min(minStart, maxStart), std::max(minStart, maxStart)));
}

void TimelineView::pushUndo()
{
    if (!m_undo.empty() && m_undo.back() == m_view.axis)
        return;
    m_undo.push_back(m_view.axis);
    if (m_undo.size() > UndoDepth)
        m_undo.erase(m_undo.begin());
}

bool TimelineView::undoZoom()
{
    if (m_undo.empty())
        return false;
    TimeAxis previous = m_undo.back();
    m_undo.pop_back();
    previous.setWidth(m_view.axis.widthPx());
    m_view.axis = previous;
    changed();
    return true;
}

void TimelineView::fitAll()
{
    if (!m_model)
        return;
    const auto [lo, hi] = m_model->extent();
    fitRange(lo, hi, true);
}

void TimelineView::fitRange(std::int64_t t0, std::int64_t t1, bool margin)
{
    pushUndo();
    // The margin is a share of what is drawn to scale, not of the time in breaks.
    const std::int64_t span = std::max<std::int64_t>(1, m_view.axis.unbrokenNs(t0, t1));
    const std::int64_t pad = margin ? std::max<std::int64_t>(1, span / 50) : 0;
    m_view.axis.setWidth(std::max(1, viewport()->width() - m_metrics.headerWidth));
    m_view.axis.fit(t0 - pad, t1 + pad);
    changed();
}

void TimelineView::zoomAt(double lanePx, double factor)
{
    m_view.axis.zoomAt(lanePx, factor);
    changed();
}

void TimelineView::panByPx(double dx)
{
    m_view.axis.panPx(dx);
    changed();
}

void TimelineView::setVisibleWindow(std::int64_t startNs, double nsPerPixel)
{
    m_view.axis =
        TimeAxis(startNs, nsPerPixel, std::max(1, viewport()->width() - m_metrics.headerWidth));
    changed();
}

void TimelineView::setRulerOrigin(std::int64_t originNs)
{
    m_view.rulerOriginNs = originNs;
    viewport()->update();
}

double TimelineView::zoomAnchorPx() const
{
    const double x = m_mousePos.x() - m_metrics.headerWidth;
    if (m_mousePos.x() >= 0 && x >= 0 && x < m_view.axis.widthPx()
        && viewport()->rect().contains(m_mousePos))
        return x;
    return m_view.axis.widthPx() / 2.0;
}

bool TimelineView::goToStep(int direction)
{
    if (!m_model || m_model->session().traces.empty())
        return false;
    int traceIndex = 0;
    if (m_view.selected)
        traceIndex = m_view.selected->traceIndex;
    const auto &steps = m_model->steps(traceIndex);
    if (steps.empty())
        return false;
    // Relative to the window start, with two pixels of slack so a fitted step counts as "here".
    const double slack = 2 * m_view.axis.nsPerPixel();
    const std::int64_t pad =
        std::max<std::int64_t>(1, (steps.front().endNs - steps.front().startNs) / 50);
    const double here = static_cast<double>(m_view.axis.startNs() + pad);
    const StepSpan *target = nullptr;
    if (direction > 0) {
        for (const StepSpan &s : steps) {
            if (static_cast<double>(s.startNs) > here + slack) {
                target = &s;
                break;
            }
        }
    } else {
        for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
            if (static_cast<double>(it->startNs) < here - slack) {
                target = &*it;
                break;
            }
        }
    }
    if (!target)
        return false;
    fitRange(target->startNs, target->endNs, true);
    return true;
}

void TimelineView::triggerAction(TimelineAction action)
{
    if (!m_model && action != TimelineAction::ShowShortcuts)
        return;
    switch (action) {
    case TimelineAction::None:
        return;
    case TimelineAction::ZoomIn:
        pushUndo();
        zoomAt(zoomAnchorPx(), KeyZoomFactor);
        return;
    case TimelineAction::ZoomOut:
        pushUndo();
        zoomAt(zoomAnchorPx(), 1.0 / KeyZoomFactor);
        return;
    case TimelineAction::PanLeft:
        panByPx(-KeyPanFraction * m_view.axis.widthPx());
        return;
    case TimelineAction::PanRight:
        panByPx(KeyPanFraction * m_view.axis.widthPx());
        return;
    case TimelineAction::ScrollUp:
        verticalScrollBar()->triggerAction(QAbstractSlider::SliderSingleStepSub);
        return;
    case TimelineAction::ScrollDown:
        verticalScrollBar()->triggerAction(QAbstractSlider::SliderSingleStepAdd);
        return;
    case TimelineAction::FitSelection:
        if (m_view.range)
            fitRange(m_view.range->first, m_view.range->second);
        else if (m_view.selected)
            fitRange(m_model->startOf(*m_view.selected), m_model->endOf(*m_view.selected));
        return;
    case TimelineAction::FitAll:
        fitAll();
        return;
    case TimelineAction::UndoZoom:
        undoZoom();
        return;
    case TimelineAction::PreviousStep:
    case TimelineAction::NextStep: {
        const int direction = action == TimelineAction::NextStep ? +1 : -1;
        if (m_stepKeysForwarded)
            emit stepKeyPressed(direction);
        else
            goToStep(direction);
        return;
    }
    case TimelineAction::RangeFromSelection:
        if (m_view.selected)
            setRange(std::make_pair(
                m_model->startOf(*m_view.selected), m_model->endOf(*m_view.selected)));
        return;
    case TimelineAction::ShowShortcuts:
        emit shortcutsRequested();
        return;
    }
}

void TimelineView::keyPressEvent(QKeyEvent *event)
{
    const TimelineAction action = actionForKey(event->key(), event->modifiers(),
        event->nativeScanCode(), event->nativeVirtualKey(), m_keyPlatform);
    if (action == TimelineAction::None) {
        QAbstractScrollArea::keyPressEvent(event);
        return;
    }
    triggerAction(action);
    event->accept();
}

void TimelineView::wheelEvent(QWheelEvent *event)
{
    if (!m_model)
        return;
    if (event->modifiers() & (Qt::ControlModifier | Qt::ShiftModifier)) {
        QAbstractScrollArea::wheelEvent(event); // scroll lanes
        return;
    }
    const QPoint delta = event->angleDelta();
    if (delta.y() == 0 && delta.x() != 0) {
        panByPx(-delta.x() / 4.0);
        event->accept();
        return;
    }
    // One undo entry per wheel gesture, not per notch.
    if (!m_lastWheelUndo.isValid() || m_lastWheelUndo.elapsed() > 600)
        pushUndo();
    m_lastWheelUndo.restart();
    const double x = event->position().x() - m_metrics.headerWidth;
    const double anchor = x >= 0 ? x : m_view.axis.widthPx() / 2.0;
    zoomAt(anchor, std::pow(1.25, delta.y() / 120.0));
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent *event)
{
    setFocus(Qt::MouseFocusReason);
    m_pressPos = event->position().toPoint();
    m_lastPos = m_pressPos;
    m_moved = false;
    if (!m_model || event->button() != Qt::LeftButton)
        return;
    if (event->modifiers() & Qt::ShiftModifier) {
        m_drag = Drag::Range;
        m_rangeAnchor = m_view.axis.toNs(m_pressPos.x() - m_metrics.headerWidth);
    } else {
        m_drag = Drag::Pan;
    }
}

void TimelineView::mouseMoveEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    m_mousePos = pos;
    if (m_drag == Drag::None)
        return;
    if ((pos - m_pressPos).manhattanLength() > 3)
        m_moved = true;
    if (!m_moved)
        return;
    if (m_drag == Drag::Pan) {
        const QPoint d = pos - m_lastPos;
        m_view.axis.panPx(-d.x());
        verticalScrollBar()->setValue(verticalScrollBar()->value() - d.y());
        m_lastPos = pos;
        changed();
    } else {
        const std::int64_t t = m_view.axis.toNs(pos.x() - m_metrics.headerWidth);
        m_view.range = std::make_pair(std::min(t, m_rangeAnchor), std::max(t, m_rangeAnchor));
        viewport()->update();
    }
}

void TimelineView::mouseReleaseEvent(QMouseEvent *event)
{
    const Drag drag = m_drag;
    m_drag = Drag::None;
    if (!m_model || event->button() != Qt::LeftButton)
        return;
    if (drag == Drag::Range && m_moved && m_view.range) {
        emit rangeSelected(m_view.range->first, m_view.range->second);
        return;
    }
    if (m_moved)
        return;
    const HitResult hit = hitTest(*m_model, m_view, m_metrics, canvasSize(), event->position());
    const Lane *lane =
        hit.lane >= 0 ? &m_model->lanes()[static_cast<std::size_t>(hit.lane)] : nullptr;
    switch (hit.kind) {
    case HitResult::Kind::Header:
        if (lane && (lane->kind == LaneKind::Rank || lane->kind == LaneKind::Process))
            setCollapsed(lane->key, !m_view.collapsed.contains(lane->key));
        return;
    case HitResult::Kind::StepLane:
        if (hit.segment) {
            for (const StepSpan &s : m_model->steps(lane->traceIndex)) {
                if (s.number == hit.segment->step) {
                    setRange(std::make_pair(s.startNs, s.endNs));
                    return;
                }
            }
        }
        return;
    case HitResult::Kind::Event:
        selectEvent(hit.event);
        return;
    default:
        selectEvent(std::nullopt);
        if (m_view.range)
            setRange(std::nullopt);
        return;
    }
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (!m_model)
        return;
    const HitResult hit = hitTest(*m_model, m_view, m_metrics, canvasSize(), event->position());
    if (hit.kind == HitResult::Kind::Event) {
        selectEvent(hit.event);
        fitRange(m_model->startOf(hit.event), m_model->endOf(hit.event));
    } else if (hit.kind == HitResult::Kind::StepLane && hit.segment) {
        const Lane &lane = m_model->lanes()[static_cast<std::size_t>(hit.lane)];
        for (const StepSpan &s : m_model->steps(lane.traceIndex)) {
            if (s.number == hit.segment->step)
                fitRange(s.startNs, s.endNs);
        }
    }
}

} // namespace stepscope::ui::timeline

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// TimelineView's tooltips and context menu: what the user reads on hover and right-click.
#include "analysis/units.h"
#include "axisbreaks.h"
#include "geometrybuilder.h"
#include "timelineview.h"
#include "ui/text.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QMenu>
#include <QToolTip>

namespace stepscope::ui::timeline {

namespace {

/// What a step-lane segment's place says, when it is not where the time went.
QString drawnNote(analysis::LaneSegment::Drawn drawn)
{
    switch (drawn) {
    case analysis::LaneSegment::Drawn::AsHappened:
        break;
    case analysis::LaneSegment::Drawn::FromTable:
        return QStringLiteral("<br><i>drawn from the profiler's table, one block per column "
                              "in its order: the timeline holds under half of the step</i>");
    case analysis::LaneSegment::Drawn::FromTableOnly:
        return QStringLiteral("<br><i>from the profiler's table alone: no timeline holds this "
                              "step, so where it lies in time was not measured</i>");
    }
    return {};
}

} // namespace

QString TimelineView::tooltipAt(QPoint pos) const
{
    if (!m_model)
        return {};
    const HitResult hit = hitTest(*m_model, m_view, m_metrics, canvasSize(), pos);
    if (hit.kind == HitResult::Kind::Ruler || hit.kind == HitResult::Kind::EmptyLane) {
        if (const AxisBreak *b = breakAtPx(m_view.axis, pos.x() - m_metrics.headerWidth))
            return QStringLiteral("<b>%1 with nothing in it</b><br>drawn as a break, not to "
                                  "scale (right-click › Break empty gaps)")
                .arg(durText(b->lengthNs()));
    }
    const Lane *lane =
        hit.lane >= 0 ? &m_model->lanes()[static_cast<std::size_t>(hit.lane)] : nullptr;
    switch (hit.kind) {
    case HitResult::Kind::Event: {
        const EventKey &e = hit.event;
        const model::Track &track = m_model->track(e);
        QString tip = QStringLiteral("<b>") + m_model->nameOf(e).toHtmlEscaped()
            + QStringLiteral("</b><br>") + qs(model::categoryName(track.category(e.index)))
            + QStringLiteral(" · rank %1").arg(lane->rank) + QStringLiteral("<br>start ")
            + durText(m_model->startOf(e) - m_model->extent().first)
            + QStringLiteral(" · duration ") + durText(track.duration(e.index));
        const std::int64_t step = m_model->stepOf(e);
        if (step >= 0)
            tip += QStringLiteral("<br>step %1").arg(step);
        return tip;
    }
    case HitResult::Kind::StepLane:
        if (hit.segment)
            return QStringLiteral("<b>step %1</b><br>").arg(hit.segment->step)
                + segmentName(hit.segment->kind) + QStringLiteral(": ")
                + durText(hit.segment->endNs - hit.segment->startNs)
                + drawnNote(hit.segment->drawn);
        return lane ? m_model->laneTooltip(hit.lane) : QString();
    case HitResult::Kind::Header:
    case HitResult::Kind::Counter:
    case HitResult::Kind::EmptyLane:
        return lane ? m_model->laneTooltip(hit.lane).toHtmlEscaped().replace(
                   QLatin1Char('\n'), QStringLiteral("<br>"))
                    : QString();
    default:
        return {};
    }
}

bool TimelineView::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QString tip = tooltipAt(help->pos());
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, viewport());
        return true;
    }
    if (event->type() == QEvent::Leave)
        m_mousePos = QPoint(-1, -1);
    if (event->type() == QEvent::PaletteChange)
        applyPalette();
    return QAbstractScrollArea::viewportEvent(event);
}

void TimelineView::contextMenuEvent(QContextMenuEvent *event)
{
    if (!m_model)
        return;
    const HitResult hit =
        hitTest(*m_model, m_view, m_metrics, canvasSize(), viewport()->mapFrom(this, event->pos()));
    QMenu menu(this);
    if (hit.lane >= 0) {
        const Lane &lane = m_model->lanes()[static_cast<std::size_t>(hit.lane)];
        const QString key = lane.key;
        const bool pinned = m_view.pinned.contains(key);
        menu.addAction(
            pinned ? tr("Unpin “%1”").arg(lane.label) : tr("Pin “%1” to the top").arg(lane.label),
            this, [this, key, pinned] { setPinned(key, !pinned); });
        menu.addAction(
            tr("Hide “%1”").arg(lane.label), this, [this, key] { setHidden(key, true); });
    }
    if (!m_view.hidden.isEmpty())
        menu.addAction(tr("Show %1 hidden lanes").arg(m_view.hidden.size()), this,
            &TimelineView::showAllLanes);
    menu.addSeparator();
    menu.addAction(tr("Fit all\t0"), this, &TimelineView::fitAll);
    if (!m_model->breaks()->empty()) {
        QAction *breaks =
            menu.addAction(tr("Break empty gaps"), this, [this](bool on) { setGapBreaks(on); });
        breaks->setCheckable(true);
        breaks->setChecked(m_gapBreaks);
        breaks->setToolTip(tr("Draw stretches with nothing in them (between two profiling "
                              "windows) as a narrow break instead of to scale"));
    }
    if (!menu.isEmpty())
        menu.exec(event->globalPos());
}

} // namespace stepscope::ui::timeline

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "comparepictures.h"

#include "analysis/units.h"
#include "comparestrip.h"
#include "lossplot.h"
#include "memorybars.h"
#include "ui/charts/barchart.h"
#include "ui/text.h"
#include "ui/timeline/geometrybuilder.h"

#include <QApplication>
#include <QPainter>

#include <algorithm>

namespace stepscope::ui::compare {

namespace {

/// A timeline view state showing [anchor − pad, anchor + span + pad) with the ruler from anchor.
timeline::ViewState alignedView(
    const timeline::TimelineModel &model, std::int64_t anchor, std::int64_t span, int widthPx)
{
    timeline::ViewState v;
    for (const QString &key : hostOnlyProcessKeys(model))
        v.collapsed.insert(key);
    const std::int64_t pad = std::max<std::int64_t>(1, span / 50);
    v.axis = timeline::TimeAxis(
        anchor - pad, static_cast<double>(span + 2 * pad) / std::max(1, widthPx), widthPx);
    v.rulerOriginNs = anchor;
    v.showLegend = false;
    return v;
}

} // namespace

PaintFunction alignedTimelinesPainter(
    std::shared_ptr<const CompareData> data, const CompareSelection &selection, bool overlay)
{
    return [data, selection, overlay](QPainter &painter, const QSize &size) {
        const QFont font = QApplication::font();
        painter.fillRect(QRect(QPoint(0, 0), size), Qt::white);
        if (!data || !data->before.profile.timeline || !data->after.profile.timeline)
            return;
        const analysis::StepPairing pairing = data->pairing(selection.anchor);
        const AlignedPair aligned = alignedPair(*data, pairing, selection);
        if (!aligned.valid)
            return;
        const std::int64_t span = std::max<std::int64_t>(1, aligned.longestNs());

        StripPicture strip;
        strip.beforeSegments = data->before.stepSegments();
        strip.afterSegments = data->after.stepSegments();
        strip.beforeAnchorNs = aligned.beforeStartNs;
        strip.afterAnchorNs = aligned.afterStartNs;
        strip.beforeLengthNs = aligned.beforeEndNs - aligned.beforeStartNs;
        strip.afterLengthNs = aligned.afterEndNs - aligned.afterStartNs;
        strip.strips = computeDeltaStrips(strip.beforeSegments, aligned.beforeStartNs,
            aligned.beforeEndNs, strip.afterSegments, aligned.afterStartNs, aligned.afterEndNs);
        strip.overlay = overlay;
        strip.beforeLabel = QStringLiteral("before · step %1").arg(aligned.pair.beforeStep);
        strip.afterLabel = QStringLiteral("after · step %1").arg(aligned.pair.afterStep);
        // A picture has room: the header column widens, up to two fifths of it, so that no
        // strip's name ("Δ Communication (overlapped)") is cut.
        timeline::TimelineMetrics metrics;
        metrics.headerWidth = std::clamp(stripHeaderWidth(strip, font), metrics.headerWidth,
            std::max(metrics.headerWidth, size.width() * 2 / 5));
        StripMetrics stripMetrics;
        stripMetrics.headerWidth = metrics.headerWidth;
        const int laneWidth = std::max(1, size.width() - metrics.headerWidth);
        const timeline::ViewState beforeView =
            alignedView(*data->before.profile.timeline, aligned.beforeStartNs, span, laneWidth);
        strip.axis = timeline::TimeAxis(beforeView.axis.startNs() - aligned.beforeStartNs,
            beforeView.axis.nsPerPixel(), laneWidth);

        const QFontMetrics fm(font);
        const int title = fm.height() + 8;
        const int stripH = stripPictureHeight(strip, stripMetrics);
        const int timelineH = std::max(60, (size.height() - 2 * title - stripH) / 2);

        painter.setFont(font);
        auto caption = [&](int y, const QString &text) {
            painter.fillRect(QRect(0, y, size.width(), title), paperTitleBarColor());
            painter.setPen(paperTextColor());
            painter.drawText(
                QRect(6, y, size.width() - 12, title), Qt::AlignLeft | Qt::AlignVCenter, text);
        };
        auto sideText = [&](const CompareSide &side, std::int64_t step, std::int64_t length) {
            return QStringLiteral("%1 · step %2 · %3")
                .arg(side.name())
                .arg(step)
                .arg(durText(length));
        };
        int y = 0;
        caption(y,
            QStringLiteral("Before: ")
                + sideText(data->before, aligned.pair.beforeStep, strip.beforeLengthNs));
        y += title;
        painter.save();
        painter.translate(0, y);
        painter.setClipRect(QRect(0, 0, size.width(), timelineH));
        timeline::paintTimeline(painter, *data->before.profile.timeline, beforeView,
            QSize(size.width(), timelineH), metrics, font);
        painter.restore();
        y += timelineH;
        painter.save();
        painter.translate(0, y);
        painter.setClipRect(QRect(0, 0, size.width(), stripH));
        timeline::paintGeometry(painter,
            buildStripGeometry(strip, QSize(size.width(), stripH), stripMetrics, font), font);
        painter.restore();
        y += stripH;
        caption(y,
            QStringLiteral("After: ")
                + sideText(data->after, aligned.pair.afterStep, strip.afterLengthNs));
        y += title;
        const timeline::ViewState afterView =
            alignedView(*data->after.profile.timeline, aligned.afterStartNs, span, laneWidth);
        painter.save();
        painter.translate(0, y);
        painter.setClipRect(QRect(0, 0, size.width(), timelineH));
        timeline::paintTimeline(painter, *data->after.profile.timeline, afterView,
            QSize(size.width(), timelineH), metrics, font);
        painter.restore();
    };
}

PaintFunction pairedStepBarsPainter(
    std::shared_ptr<const CompareData> data, const CompareSelection &selection)
{
    auto chart = std::make_shared<BarChart>();
    if (data) {
        const analysis::StepPairing pairing = data->pairing(selection.anchor);
        QStringList categories;
        BarSetData before {QStringLiteral("before: ") + data->before.name(), beforeColor(), {}};
        BarSetData after {QStringLiteral("after: ") + data->after.name(), afterColor(), {}};
        for (const auto &pair : pairing.pairs) {
            categories << (pair.beforeStep == pair.afterStep
                    ? QString::number(pair.beforeStep)
                    : QStringLiteral("%1↔%2").arg(pair.beforeStep).arg(pair.afterStep));
            before.values << static_cast<double>(
                data->before.breakdowns[pair.beforeIndex].durationNs());
            after.values << static_cast<double>(
                data->after.breakdowns[pair.afterIndex].durationNs());
        }
        chart->setTitle(QStringLiteral("Paired step times"));
        chart->setValueUnit(ValueUnit::Duration);
        chart->setValueAxisTitle(QStringLiteral("Step time"));
        chart->setLegendAlignment(Qt::AlignBottom);
        chart->setCategoryAxisTitle(QStringLiteral("step (before↔after)"));
        chart->setData(categories, {before, after}, BarChart::Mode::Grouped);
    }
    // Shown off screen, as the exported panels are: a never-shown widget gets its size only
    // inside render(), where the chart's first layout (a tiny plot, every step label elided)
    // changed its axes too late, and a stale axis was drawn in the plot's corner.
    chart->setAttribute(Qt::WA_DontShowOnScreen);
    chart->show();
    PaintFunction inner = widgetPainter(chart.get());
    return [chart, inner](QPainter &painter, const QSize &size) { inner(painter, size); };
}

PaintFunction memoryBarsPainter(std::shared_ptr<const CompareData> data)
{
    auto chart = std::make_shared<BarChart>();
    if (data)
        fillMemoryChart(*chart, memoryBars(data->comparison.memoryRows), data->before.name(),
            data->after.name(), Theme::Light);
    // Shown off screen before it is drawn, as pairedStepBarsPainter's chart.
    chart->setAttribute(Qt::WA_DontShowOnScreen);
    chart->show();
    PaintFunction inner = widgetPainter(chart.get());
    return [chart, inner](QPainter &painter, const QSize &size) { inner(painter, size); };
}

PaintFunction lossOverlayPainter(LossOverlay overlay)
{
    return [overlay = std::move(overlay)](QPainter &painter, const QSize &size) {
        painter.setFont(QApplication::font());
        paintLossOverlay(painter, size, overlay, Theme::Light);
    };
}

} // namespace stepscope::ui::compare

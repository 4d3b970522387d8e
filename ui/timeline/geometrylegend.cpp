// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The timeline's legend: the step lane's kinds and the event categories present, in order,
// on as many lines as the strip holds; what does not fit is counted in a "+N more".
#include "geometrybuilder_p.h"

#include <optional>
#include <vector>

namespace stepscope::ui::timeline {

namespace {

struct LegendEntry
{
    std::optional<QColor> swatch; // none: a heading
    QString label;
    double gapBefore = 0;
    double width = 0; // with its trailing gap
};

std::vector<LegendEntry> legendEntries(
    const TimelineModel &model, const ViewState &view, const QFontMetricsF &fm)
{
    std::vector<LegendEntry> entries;
    if (model.segmentMask() != 0)
        entries.push_back({std::nullopt, QStringLiteral("step lane:"), 0});
    for (const analysis::SegmentKind kind : segmentKinds()) {
        if (model.segmentMask() & (1u << static_cast<unsigned>(kind)))
            entries.push_back({segmentColor(kind, view.theme), segmentName(kind), 0});
    }
    if (model.categoryMask() != 0)
        entries.push_back(
            {std::nullopt, QStringLiteral("events:"), model.segmentMask() != 0 ? 12.0 : 0.0});
    for (int c = 0; c < model::CategoryCount; ++c) {
        if (model.categoryMask() & (1u << c))
            entries.push_back({categoryColor(static_cast<model::Category>(c), view.theme),
                qs(model::categoryName(static_cast<model::Category>(c))), 0});
    }
    for (LegendEntry &e : entries) {
        const double textW = fm.horizontalAdvance(e.label);
        e.width = e.gapBefore + (e.swatch ? 13 + textW + 12 : textW + 8);
    }
    return entries;
}

struct Placed
{
    std::size_t entry = 0;
    int line = 0;
    double x = 0; ///< where the entry's gap ends
};

constexpr double Left = 6;

/// Entries in order on up to `lines` lines ending at `right`; a line breaks before an entry
/// that does not fit. On the last line, room for "+N more" (`moreW`) is kept when the rest
/// does not fit.
std::vector<Placed> placeLegend(
    const std::vector<LegendEntry> &entries, double right, int lines, double moreW)
{
    std::vector<double> rest(entries.size() + 1, 0); // width of entries[k..]
    for (std::size_t k = entries.size(); k-- > 0;)
        rest[k] = rest[k + 1] + entries[k].width;
    std::vector<Placed> out;
    int line = 0;
    double px = Left;
    for (std::size_t k = 0; k < entries.size(); ++k) {
        const LegendEntry &e = entries[k];
        const auto fits = [&] {
            const bool last = line + 1 >= lines;
            const double reserve = last && px + rest[k] - 12 > right ? moreW : 0;
            return px + e.width - 12 <= right - reserve; // the last item needs no trailing gap
        };
        if (!fits()) {
            if (line + 1 >= lines || px <= Left)
                break;
            ++line;
            px = Left;
            if (!fits())
                break;
        }
        const double gap = px > Left ? e.gapBefore : 0; // a line starts without one
        out.push_back({k, line, px + gap});
        px += e.width - e.gapBefore + gap;
    }
    return out;
}

} // namespace

int legendLinesNeeded(
    const TimelineModel &model, const ViewState &view, int width, const QFont &font)
{
    const auto placed =
        placeLegend(legendEntries(model, view, QFontMetricsF(font)), width - Left, 1 << 10, 0);
    return placed.empty() ? 1 : placed.back().line + 1;
}

namespace detail {

void Builder::buildLegend()
{
    if (!m_view.showLegend || m_metrics.legendHeight <= 0)
        return;
    const double top = m_size.height() - m_metrics.legendHeight;
    m_bg.add(
        m_view.colors.headerBackground, QRectF(0, top, m_size.width(), m_metrics.legendHeight));
    m_g.lines.push_back({QLineF(0, top + 0.5, m_size.width(), top + 0.5), m_view.colors.grid, 1});
    const std::vector<LegendEntry> entries = legendEntries(m_model, m_view, m_fm);
    const int lines = std::max(1, m_metrics.legendHeight / LegendLineHeight);
    const double lineH = static_cast<double>(m_metrics.legendHeight) / lines;
    const std::vector<Placed> placed = placeLegend(entries, m_size.width() - Left, lines,
        m_fm.horizontalAdvance(QStringLiteral("+99 more")) + 8);
    double endX = Left;
    for (const Placed &p : placed) {
        const LegendEntry &e = entries[p.entry];
        const double y = top + p.line * lineH;
        const double textW = e.width - e.gapBefore - (e.swatch ? 25 : 8);
        if (e.swatch) {
            m_content.add(*e.swatch, QRectF(p.x, y + (lineH - 10) / 2, 10, 10));
            text(QRectF(p.x + 13, y, textW + 4, lineH), e.label, m_view.colors.text,
                Qt::AlignLeft | Qt::AlignVCenter);
        } else {
            text(QRectF(p.x, y, textW + 4, lineH), e.label, m_view.colors.mutedText,
                Qt::AlignLeft | Qt::AlignVCenter);
        }
        endX = p.x + e.width - e.gapBefore;
    }
    std::size_t hidden = 0;
    for (std::size_t k = placed.size(); k < entries.size(); ++k)
        hidden += entries[k].swatch ? 1 : 0;
    if (hidden > 0) {
        const QString more = QStringLiteral("+%1 more").arg(hidden);
        text(QRectF(endX, top + (lines - 1) * lineH, m_fm.horizontalAdvance(more) + 4, lineH), more,
            m_view.colors.mutedText, Qt::AlignLeft | Qt::AlignVCenter);
    }
}

} // namespace detail

} // namespace stepscope::ui::timeline

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "comparestrip.h"

#include "analysis/units.h"
#include "ui/text.h"
#include "ui/timeline/geometrybuilder.h"

#include <QFontMetricsF>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace stepscope::ui::compare {

namespace {

QString signedDur(std::int64_t ns)
{
    return (ns > 0          ? QStringLiteral("+")
                   : ns < 0 ? QStringLiteral("−")
                            : QString())
        + durText(ns < 0 ? -ns : ns);
}

/// Builds the strip picture row by row, top to bottom.
class StripBuilder
{
public:
    StripBuilder(const StripPicture &p, QSize size, const StripMetrics &m, const QFont &font)
        : m_p(p)
        , m_size(size)
        , m_m(m)
        , m_fm(font)
        , m_left(m.headerWidth)
        , m_right(size.width())
    {
    }

    timeline::Geometry build()
    {
        m_g.size = m_size;
        m_g.background = m_p.colors.background;
        m_bg.add(m_p.colors.headerBackground, QRectF(0, 0, m_left, m_size.height()));
        int y = 0;
        if (m_p.overlay) {
            ruler(y);
            y += m_m.rulerHeight;
            lane(y, m_p.beforeLabel, m_p.beforeSegments, m_p.beforeAnchorNs, 0, 1);
            y += m_m.laneHeight + m_m.gap;
            lane(y, m_p.afterLabel, m_p.afterSegments, m_p.afterAnchorNs, 0, 1);
            y += m_m.laneHeight + m_m.gap;
            // Both on one axis: before fills the lane, after is drawn inset in its middle.
            text(QRectF(6, y, m_left - 10, m_m.laneHeight), QStringLiteral("overlay (after inset)"),
                m_p.colors.text, false);
            lane(y, QString(), m_p.beforeSegments, m_p.beforeAnchorNs, 0, 1);
            lane(y, QString(), m_p.afterSegments, m_p.afterAnchorNs, 0.3, 0.4);
            y += m_m.laneHeight + m_m.gap;
        }
        for (const DeltaStrip &s : m_p.strips) {
            strip(y, s);
            y += m_m.stripHeight + m_m.gap;
        }
        marks();
        m_g.lines.push_back(
            {QLineF(m_left - 0.5, 0, m_left - 0.5, m_size.height()), m_p.colors.grid, 1});
        m_g.backgrounds = m_bg.take();
        m_g.content = m_content.take();
        return std::move(m_g);
    }

private:
    double x(std::int64_t rel) const { return m_left + m_p.axis.toPx(rel); }

    void text(const QRectF &r, const QString &t, const QColor &c, bool bold,
        int flags = Qt::AlignLeft | Qt::AlignVCenter)
    {
        m_g.texts.push_back({r, t, c, flags, bold});
    }

    void ruler(int y)
    {
        const double h = m_m.rulerHeight;
        m_bg.add(m_p.colors.headerBackground, QRectF(0, y, m_size.width(), h));
        const timeline::TickSpacing spacing = timeline::tickSpacing(m_p.axis.nsPerPixel(), 90);
        const std::int64_t t0 = m_p.axis.startNs();
        std::int64_t t = (t0 / spacing.stepNs) * spacing.stepNs;
        if (t < t0)
            t += spacing.stepNs;
        for (int guard = 0; t <= m_p.axis.endNs() && guard < 1000; t += spacing.stepNs, ++guard) {
            const double px = x(t);
            if (px < m_left)
                continue;
            m_g.lines.push_back({QLineF(px, y + h * 0.5, px, y + h), m_p.colors.mutedText, 1});
            // A label the right edge would cut ("140 r") is left out; its tick stays.
            const QString label = timeline::tickLabel(t, spacing);
            if (px + 3 + m_fm.horizontalAdvance(label) <= m_right)
                text(QRectF(px + 3, y, 110, h * 0.6), label, m_p.colors.text, false);
        }
        text(QRectF(6, y, m_left - 10, h), QStringLiteral("from the aligned step's start"),
            m_p.colors.mutedText, false);
        m_g.lines.push_back(
            {QLineF(0, y + h - 0.5, m_size.width(), y + h - 0.5), m_p.colors.grid, 1});
    }

    /// One side's step lane between relative fractions [top, top + height) of a lane row.
    void lane(int y, const QString &label, const std::vector<timeline::StepLaneSegment> &segments,
        std::int64_t anchor, double top, double height)
    {
        if (!label.isEmpty())
            text(QRectF(6, y, m_left - 10, m_m.laneHeight), label, m_p.colors.text, true);
        const std::int64_t t0 = m_p.axis.startNs() + anchor;
        const std::int64_t t1 = m_p.axis.endNs() + anchor;
        auto it = std::lower_bound(segments.begin(), segments.end(), t0,
            [](const timeline::StepLaneSegment &s, std::int64_t t) { return s.endNs <= t; });
        const double ry = y + m_m.laneHeight * top;
        const double rh = m_m.laneHeight * height;
        double lastRight = -1;
        for (; it != segments.end() && it->startNs < t1; ++it) {
            const double a = std::max<double>(m_left, x(it->startNs - anchor));
            const double b = std::min<double>(m_right, x(it->endNs - anchor));
            // Level of detail: a sub-pixel segment inside an already painted pixel is skipped.
            if (b <= lastRight || b - a <= 0)
                continue;
            const double w = std::max(1.0, b - std::max(a, lastRight));
            m_content.add(
                segmentColor(it->kind, m_p.theme), QRectF(std::max(a, lastRight), ry, w, rh));
            lastRight = std::max(a, lastRight) + w;
        }
    }

    void strip(int y, const DeltaStrip &s)
    {
        // The delta right-aligned before the colour mark, the name elided in what is left: a
        // long name ("Communication (overlapped)") must not push the figure out of view.
        const QColor tone = s.deltaNs() > 0 ? worseColor(m_p.theme)
            : s.deltaNs() < 0               ? betterColor(m_p.theme)
                                            : m_p.colors.mutedText;
        const QString delta = signedDur(s.deltaNs());
        const double room = m_left - 14;
        const double deltaWidth = m_fm.horizontalAdvance(delta);
        text(QRectF(6, y - 1, room, m_m.stripHeight + 2), delta, tone, false,
            Qt::AlignRight | Qt::AlignVCenter);
        const QString name = m_fm.elidedText(QStringLiteral("Δ ") + s.label, Qt::ElideRight,
            std::max(0.0, room - deltaWidth - m_fm.horizontalAdvance(QStringLiteral("  "))));
        text(QRectF(6, y - 1, room, m_m.stripHeight + 2), name, tone, false);
        if (s.kind)
            m_content.add(segmentColor(*s.kind, m_p.theme),
                QRectF(m_left - 6, y + 2, 4, m_m.stripHeight - 4));
        m_bg.add(m_p.colors.stripe, QRectF(m_left, y, m_right - m_left, m_m.stripHeight));
        double lastRight = -1;
        for (const DeltaPiece &piece : s.pieces) {
            const double a = std::max<double>(m_left, x(piece.startNs));
            const double b = std::min<double>(m_right, x(piece.endNs));
            if (b <= m_left || a >= m_right || b <= lastRight)
                continue;
            const double from = std::max(a, lastRight);
            const double w = std::max(1.0, b - from);
            m_content.add(piece.sign > 0 ? worseColor(m_p.theme) : betterColor(m_p.theme),
                QRectF(from, y + 1, w, m_m.stripHeight - 2));
            lastRight = from + w;
        }
    }

    /// Dashed-looking marks at the aligned start and at each side's step end.
    void marks()
    {
        const double h = m_size.height();
        auto mark = [&](std::int64_t rel, const QColor &c) {
            const double px = x(rel);
            if (px >= m_left && px <= m_right)
                m_g.lines.push_back({QLineF(px, 0, px, h), c, 1});
        };
        mark(0, m_p.colors.text);
        mark(m_p.beforeLengthNs, m_p.colors.mutedText);
        mark(m_p.afterLengthNs, m_p.colors.text);
    }

    const StripPicture &m_p;
    QSize m_size;
    const StripMetrics &m_m;
    QFontMetricsF m_fm;
    double m_left;
    double m_right;
    timeline::Geometry m_g;
    timeline::RectBatcher m_bg;
    timeline::RectBatcher m_content;
};

} // namespace

int stripPictureHeight(const StripPicture &picture, const StripMetrics &metrics)
{
    int h =
        static_cast<int>(picture.strips.size()) * (metrics.stripHeight + metrics.gap) + metrics.gap;
    if (picture.overlay)
        h += metrics.rulerHeight + 3 * (metrics.laneHeight + metrics.gap);
    return h;
}

int stripHeaderWidth(const StripPicture &picture, const QFont &font)
{
    const QFontMetrics fm(font);
    QFont boldFont(font);
    boldFont.setBold(true);
    const QFontMetrics bold(boldFont);
    // StripBuilder::strip: the name, two blanks and the delta in the header less 14 px.
    int need = 0;
    for (const DeltaStrip &s : picture.strips)
        need = std::max(need,
            fm.horizontalAdvance(QStringLiteral("Δ ") + s.label + QStringLiteral("  "))
                + fm.horizontalAdvance(signedDur(s.deltaNs())) + 16);
    if (picture.overlay)
        for (const QString &label :
            {picture.beforeLabel, picture.afterLabel, QStringLiteral("overlay (after inset)")})
            need = std::max(need, bold.horizontalAdvance(label) + 12);
    return need;
}

timeline::Geometry buildStripGeometry(
    const StripPicture &picture, QSize size, const StripMetrics &metrics, const QFont &font)
{
    return StripBuilder(picture, size, metrics, font).build();
}

CompareStrip::CompareStrip(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("compareStrip"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void CompareStrip::setPicture(StripPicture picture)
{
    m_picture = std::move(picture);
    m_picture.axis.setWidth(std::max(1, width() - m_metrics.headerWidth));
    updateGeometry();
    setFixedHeight(stripPictureHeight(m_picture, m_metrics));
    update();
}

timeline::Geometry CompareStrip::currentGeometry() const
{
    return buildStripGeometry(m_picture, size(), m_metrics, font());
}

QSize CompareStrip::sizeHint() const
{
    return {600, stripPictureHeight(m_picture, m_metrics)};
}

QSize CompareStrip::minimumSizeHint() const
{
    return sizeHint();
}

void CompareStrip::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    timeline::paintGeometry(painter, currentGeometry(), font());
}

void CompareStrip::wheelEvent(QWheelEvent *event)
{
    const QPoint d = event->angleDelta();
    if (d.y() == 0 && d.x() != 0)
        emit panRequested(-d.x() / 4.0);
    else
        emit zoomRequested(
            event->position().x() - m_metrics.headerWidth, std::pow(1.25, d.y() / 120.0));
    event->accept();
}

void CompareStrip::mousePressEvent(QMouseEvent *event)
{
    m_lastPos = event->position().toPoint();
}

void CompareStrip::mouseMoveEvent(QMouseEvent *event)
{
    if (!(event->buttons() & Qt::LeftButton))
        return;
    const QPoint pos = event->position().toPoint();
    emit panRequested(m_lastPos.x() - pos.x());
    m_lastPos = pos;
}

} // namespace stepscope::ui::compare

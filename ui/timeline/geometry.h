// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "lanelayout.h"

#include <QColor>
#include <QHash>
#include <QLineF>
#include <QPolygonF>
#include <QRectF>
#include <QString>

#include <cstddef>
#include <vector>

namespace stepscope::ui::timeline {

/// Filled rectangles of one colour, drawn with one QPainter::drawRects call.
struct RectBatch
{
    QColor color;
    std::vector<QRectF> rects;
};

/// Rectangle outlines of one colour and pen width.
struct OutlineBatch
{
    QColor color;
    qreal width = 1;
    std::vector<QRectF> rects;
};

struct TextItem
{
    QRectF rect;
    QString text;
    QColor color;
    int flags = 0; ///< Qt::Alignment | Qt::TextFlag
    bool bold = false;
};

struct LineItem
{
    QLineF line;
    QColor color;
    qreal width = 1;
};

struct PolygonItem
{
    QPolygonF polygon;
    QColor fill;
    QColor outline;
};

/// Collects rectangles into one batch per colour (first use fixes the batch order).
class RectBatcher
{
public:
    void add(const QColor &color, const QRectF &rect);
    std::vector<RectBatch> take() { return std::move(m_batches); }
    const std::vector<RectBatch> &batches() const { return m_batches; }

private:
    std::vector<RectBatch> m_batches;
    QHash<QRgb, std::size_t> m_index;
};

/// Everything one frame of the timeline draws, in paint order: backgrounds, content (events,
/// runs, step segments), counter plots, overlays (range, search), outlines (selection), lines
/// (grid, ruler ticks, flows), texts. Built by buildGeometry() for the screen and for export.
struct Geometry
{
    QSize size;
    QColor background;
    std::vector<RectBatch> backgrounds;
    std::vector<RectBatch> content;
    std::vector<PolygonItem> polygons;
    std::vector<RectBatch> overlays;
    std::vector<OutlineBatch> outlines;
    std::vector<LineItem> lines;
    std::vector<TextItem> texts;
    LaneLayout layout;

    // What the level of detail produced (tests and the frame benchmark read these).
    std::size_t eventRects = 0; ///< single events drawn
    std::size_t mergedRuns = 0; ///< runs of sub-pixel events drawn
    std::size_t maxPiecesPerRow = 0;
    std::size_t rowsDrawn = 0;

    std::size_t rectCount() const;
};

} // namespace stepscope::ui::timeline

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "deltastrip.h"
#include "ui/timeline/geometry.h"
#include "ui/timeline/timeaxis.h"
#include "ui/timeline/viewstate.h"

#include <QFont>
#include <QString>
#include <QWidget>

#include <vector>

namespace stepscope::ui::compare {

/// What the strip between the two timelines shows: in overlay mode a ruler and the two step
/// lanes on one axis (before above, after below, and both in one lane), then the delta
/// strips of the aligned step. Times on `axis` are relative to the aligned step's start
/// (the same on both sides); a side's session-relative t shows at t − its anchor.
struct StripPicture
{
    timeline::TimeAxis axis; ///< relative ns; widthPx = lane-area width
    std::vector<timeline::StepLaneSegment> beforeSegments; ///< session-relative (before)
    std::vector<timeline::StepLaneSegment> afterSegments; ///< session-relative (after)
    std::int64_t beforeAnchorNs = 0;
    std::int64_t afterAnchorNs = 0;
    std::int64_t beforeLengthNs = 0; ///< aligned step lengths (marks at their ends)
    std::int64_t afterLengthNs = 0;
    std::vector<DeltaStrip> strips;
    bool overlay = false;
    QString beforeLabel = QStringLiteral("before");
    QString afterLabel = QStringLiteral("after");
    timeline::TimelineColors colors;
    Theme theme = Theme::Light;
};

struct StripMetrics
{
    int headerWidth = 230; ///< the timelines' header width, so lanes line up
    int rulerHeight = 22;
    int laneHeight = 20;
    int stripHeight = 14;
    int gap = 2;
};

/// The height the strip needs for `picture`.
int stripPictureHeight(const StripPicture &picture, const StripMetrics &metrics = {});

/// The header width at which no name or delta of `picture` is cut (drawn with `font`): a
/// picture for a report widens its header column to it.
int stripHeaderWidth(const StripPicture &picture, const QFont &font = QFont());

/// Builds the strip as a timeline Geometry (painted with timeline::paintGeometry, the same
/// painter as the timelines, on screen and in export). Pure.
timeline::Geometry buildStripGeometry(const StripPicture &picture, QSize size,
    const StripMetrics &metrics = {}, const QFont &font = QFont());

/// The widget between the two timelines. GUI thread only.
class CompareStrip : public QWidget
{
    Q_OBJECT

public:
    explicit CompareStrip(QWidget *parent = nullptr);
    void setPicture(StripPicture picture);
    const StripPicture &picture() const { return m_picture; }
    StripMetrics metrics() const { return m_metrics; }
    /// The geometry of the current size (tests read colours and rectangles from it).
    timeline::Geometry currentGeometry() const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    /// Wheel over the lanes: zoom by `factor` (> 1 zooms in) at lane-area x `lanePx`.
    void zoomRequested(double lanePx, double factor);
    /// Drag: move the window by `dx` pixels (positive: later times come into view).
    void panRequested(double dx);

protected:
    void paintEvent(QPaintEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;

private:
    StripPicture m_picture;
    StripMetrics m_metrics;
    QPoint m_lastPos;
};

} // namespace stepscope::ui::compare

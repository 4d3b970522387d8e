// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "keybindings.h"
#include "timelinemodel.h"
#include "viewstate.h"

#include <QAbstractScrollArea>
#include <QElapsedTimer>
#include <QImage>
#include <QPoint>

#include <memory>
#include <optional>
#include <vector>

namespace stepscope::ui::timeline {

struct Geometry;

/// The timeline: ruler, step lanes, lanes grouped rank -> process -> thread / stream, counter
/// plots and the legend, painted from buildGeometry() (STYLE.md §5). Owns the ViewState;
/// reads a shared, immutable TimelineModel. Navigation per DESIGN.md "Keys" (W/A/S/D by key
/// position, see keybindings.h). GUI thread only.
class TimelineView : public QAbstractScrollArea
{
    Q_OBJECT

public:
    explicit TimelineView(QWidget *parent = nullptr);
    ~TimelineView() override;

    void setModel(std::shared_ptr<const TimelineModel> model);
    /// Replaces the model by a variant with the same lanes (TimelineModel::withClocks), keeping
    /// zoom, scroll, collapsed / hidden / pinned lanes and the selection.
    void setClockVariant(std::shared_ptr<const TimelineModel> model);
    const std::shared_ptr<const TimelineModel> &model() const { return m_model; }
    const ViewState &viewState() const { return m_view; }
    const TimelineMetrics &metrics() const { return m_metrics; }
    /// The geometry of the last paint (tests inspect the level of detail through it).
    Geometry currentGeometry() const;

    // Navigation. Zoom changes other than continuous wheel steps can be undone.
    void fitAll();
    void fitRange(std::int64_t t0, std::int64_t t1, bool margin = true);
    void zoomAt(double lanePx, double factor);
    void panByPx(double dx);
    /// Shows the window starting at `startNs` at `nsPerPixel` (compare mode couples two views
    /// through it); no undo entry. Emits viewChanged.
    void setVisibleWindow(std::int64_t startNs, double nsPerPixel);
    /// Ruler labels measure from this session-relative time (ViewState::rulerOriginNs).
    void setRulerOrigin(std::int64_t originNs);
    /// Draws the model's empty stretches (TimelineModel::breaks) as breaks of the axis (the
    /// default) or to scale; refits the view.
    void setGapBreaks(bool on);
    bool gapBreaks() const { return m_gapBreaks; }
    bool undoZoom();
    /// Goes to the previous (-1) or next (+1) step of the focused rank; false at the end.
    bool goToStep(int direction);
    /// With `on`, [ and ] emit stepKeyPressed and do not move the view: compare mode moves
    /// both sides to the previous or next pair of steps.
    void setStepKeysForwarded(bool on) { m_stepKeysForwarded = on; }
    void triggerAction(TimelineAction action);
    /// Lane-area x of the mouse when over the lanes, else the centre.
    double zoomAnchorPx() const;

    // Selection.
    void selectEvent(std::optional<EventKey> event, bool reveal = false);
    void setRange(std::optional<std::pair<std::int64_t, std::int64_t>> range);

    // Search: returns the number of matches.
    int setSearchText(const QString &text);
    /// The same search on a worker thread (a scan of every event's name: about a second at
    /// 66 M events), so typing never freezes the window: searchChanged(-1, -1) says it began,
    /// searchChanged(count, -1) that its matches are shown. A newer search, setSearchText or a
    /// new model drops an older search's result. next/previousMatch while it runs are applied
    /// once the matches are in.
    void startSearch(const QString &text);
    bool isSearching() const { return m_searchRunning; }
    void nextMatch();
    void previousMatch();
    int matchCount() const;
    int currentMatch() const { return m_view.currentMatch; }

    // Lanes.
    void setCollapsed(const QString &key, bool collapsed);
    void setPinned(const QString &key, bool pinned);
    void setHidden(const QString &key, bool hidden);
    void showAllLanes();

    /// The picture at `size` (logical px) and device pixel ratio, as export wants it.
    QImage renderImage(QSize size, qreal devicePixelRatio = 1.0) const;
    /// Milliseconds the last paint took (status bar, benchmark).
    double lastPaintMs() const { return m_lastPaintMs; }

signals:
    void eventSelected(const stepscope::ui::timeline::EventKey &event); ///< invalid key: cleared
    void rangeSelected(qint64 startNs, qint64 endNs);
    void rangeCleared();
    void searchChanged(int count, int current);
    void shortcutsRequested();
    void viewChanged();
    void stepKeyPressed(int direction); ///< see setStepKeysForwarded

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    bool viewportEvent(QEvent *event) override;
    void scrollContentsBy(int dx, int dy) override;
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    void pushUndo();
    void updateScrollBar();
    void changed();
    void clampAxis();
    void applyPalette();
    void revealEvent(const EventKey &e);
    /// Zooms in on a search hit that would be under 3 px wide, so it is seen, not a speck.
    void zoomToSmallMatch(const EventKey &e);
    void computeFlows();
    QString tooltipAt(QPoint pos) const;
    QSize canvasSize() const;

    std::shared_ptr<const TimelineModel> m_model;
    ViewState m_view;
    TimelineMetrics m_metrics;
    std::vector<TimeAxis> m_undo;
    QElapsedTimer m_lastWheelUndo;
    KeyPlatform m_keyPlatform = KeyPlatform::Unknown;
    QString m_searchText;
    /// Bumped by every search; a worker's result applies only to its own generation.
    quint64 m_searchGeneration = 0;
    bool m_searchRunning = false;
    int m_pendingMatchSteps = 0; ///< next (+1) / previous (-1) asked while the search ran

    enum class Drag { None, Pan, Range };
    Drag m_drag = Drag::None;
    QPoint m_pressPos;
    QPoint m_lastPos;
    bool m_moved = false;
    std::int64_t m_rangeAnchor = 0;
    QPoint m_mousePos {-1, -1};
    double m_lastPaintMs = 0;
    bool m_fitPending = false;
    bool m_gapBreaks = true;
    bool m_stepKeysForwarded = false;
};

} // namespace stepscope::ui::timeline

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "analysis/compare.h"

#include <QWidget>

#include <cstdint>

class QLabel;
class QTableWidget;

namespace stepscope::ui {
class ClusterHeatMap;
}

namespace stepscope::ui::compare {

/// The "Ranks" tab of a comparison of two clusters: the rank × step heat map of step-time
/// deltas (after − before, diverging: blue faster, red slower; the Cluster panel's
/// ClusterHeatMap) and the per-rank table (mean over each rank's paired steps: before,
/// after, Δ, Δ %, and Δ of compute, exposed communication, free, bubble, preparing). Every
/// number from analysis::RunComparison (rankDeltas, rankSteps). Double-clicking a cell or a
/// row asks to compare that rank on both sides. GUI thread only.
class RankDeltaPane : public QWidget
{
    Q_OBJECT

public:
    explicit RankDeltaPane(QWidget *parent = nullptr);

    void setComparison(const analysis::RunComparison &comparison);

    ClusterHeatMap *heatMap() const { return m_heatMap; }
    QTableWidget *table() const { return m_table; }
    QLabel *caption() const { return m_caption; }

signals:
    void rankActivated(std::int32_t rank);

private:
    ClusterHeatMap *m_heatMap = nullptr;
    QTableWidget *m_table = nullptr;
    QLabel *m_caption = nullptr;
};

} // namespace stepscope::ui::compare

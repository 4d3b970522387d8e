// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "analysis/analysissummary.h"
#include "analysis/communication.h"
#include "model/session.h"

#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QStackedWidget;
class QStandardItemModel;
class QTableView;

namespace stepscope::ui {

class ElidedLabel;
class HeatMap;

/// The Communication panel (issue 6, item 3): the per-collective table
/// (analysis::collectiveTable: count, total and mean time, bytes, bandwidth, wait and transit
/// time) and the rank-to-rank matrix as a heat map (analysis::communicationMatrix: size, time
/// or bandwidth per link). A profile without them says how to record them. Clicking a
/// collective row emits timeRequested with the first matching communication event of the
/// rank (or of the first rank for all-rank rows). GUI thread only.
class CommunicationPanel : public QWidget
{
    Q_OBJECT
public:
    enum class MatrixMetric { SizeMb, TimeMs, Bandwidth };

    explicit CommunicationPanel(QWidget *parent = nullptr);
    ~CommunicationPanel() override;

    /// The profile and the load's analysis of it: the table and the matrix are the
    /// analysis' (SessionAnalysis::collectives, ::matrix); the panel computes neither.
    void setAnalysis(std::shared_ptr<const model::Session> session,
        std::shared_ptr<const analysis::SessionAnalysis> analysis);
    void setMatrixMetric(MatrixMetric metric);

    const std::vector<analysis::CollectiveRow> &collectives() const { return m_rows; }
    const analysis::CommMatrix &matrix() const { return m_matrix; }
    QTableView *table() const { return m_table; }
    QStandardItemModel *tableModel() const { return m_model; }
    HeatMap *heatMap() const { return m_heatMap; }
    bool showsMessage() const;
    QString messageText() const;
    QString matrixNote() const;
    /// The links to ranks outside the profile that the matrix leaves out; empty when none.
    QString extentNote() const;
    QWidget *matrixPane() const { return m_matrixPane; }

signals:
    void timeRequested(int rank, qint64 startNs, qint64 endNs);

private:
    void fillTable();
    void fillMatrix();
    void rowClicked(int row);

    std::shared_ptr<const model::Session> m_session;
    std::vector<analysis::CollectiveRow> m_rows;
    analysis::CommMatrix m_matrix;
    MatrixMetric m_metric = MatrixMetric::SizeMb;

    QStackedWidget *m_stack = nullptr;
    QLabel *m_message = nullptr;
    QStandardItemModel *m_model = nullptr;
    QTableView *m_table = nullptr;
    QComboBox *m_metricBox = nullptr;
    QStackedWidget *m_matrixStack = nullptr;
    QLabel *m_matrixNote = nullptr;
    HeatMap *m_heatMap = nullptr;
    ElidedLabel *m_extentNote = nullptr;
    QWidget *m_matrixPane = nullptr;
};

/// A bandwidth in GB/s in the unit that keeps it readable: "12.3 GB/s", "45.6 MB/s"; "–" for 0.
QString formatBandwidth(double gbPerSecond);
/// Ascend's transit size in MB (bytes / 10^6) in binary units: "40 B", "1.43 MiB".
QString formatMegabytes(double mb);

} // namespace stepscope::ui

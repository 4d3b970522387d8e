// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "analysis/traininghealth.h"
#include "analysis/trainingsummary.h"
#include "model/session.h"

#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QGridLayout;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QDialog;

namespace stepscope::ui {

class ElidedLabel;
class StepChart;

/// The Training panel (issue 17 item 2): one run of the session's training logs as small
/// multiples on one shared step axis — loss (train, eval, perplexity), grad norm, learning
/// rate, loss scale, step time, throughput, MFU and memory as printed, each only when the log
/// prints it; grad norm and loss scale on a log axis, loss and lr when they span more than a
/// factor 10 / 100. NaN/inf points and overflow-skipped steps are marked. Above the charts
/// the run's health findings (analysis::trainingHealth). Hover shows the log line; clicking
/// a point or a finding opens the log at that line. GUI thread only.
class TrainingPanel : public QWidget
{
    Q_OBJECT
public:
    explicit TrainingPanel(QWidget *parent = nullptr);
    ~TrainingPanel() override;

    void setSession(std::shared_ptr<const model::Session> session);
    /// Session-wide run number (analysis::trainingRuns).
    void setRun(int run);
    int currentRun() const { return m_run; }
    int runCount() const { return static_cast<int>(m_runs.size()); }

    /// The charts shown, top-left to bottom-right.
    std::vector<StepChart *> charts() const { return m_charts; }
    StepChart *chart(const QString &title) const;
    const std::vector<analysis::HealthFinding> &findings() const { return m_findings; }
    QListWidget *healthList() const { return m_health; }
    bool showsMessage() const;
    QString messageText() const;

    /// Opens `file` in a read-only viewer scrolled to `line` (1-based) and highlights it.
    void openLog(const QString &file, qint64 line);
    /// What openLog showed last (tests): the file, the line and the viewer's current text line.
    QString openedLogFile() const { return m_openedFile; }
    qint64 openedLogLine() const { return m_openedLine; }
    QString openedLineText() const;

    /// The run picker's text for `run`: its number and the log's path below the folder all
    /// logs share ("1: version_1/metrics.csv"), so runs in files of one name differ; the
    /// item's tooltip is the whole path.
    static QString runLabel(const analysis::TrainingRun &run, const QString &commonFolder);
    QComboBox *runPicker() const { return m_runBox; }

private:
    void rebuild();

    std::shared_ptr<const model::Session> m_session;
    std::vector<analysis::TrainingRun> m_runs;
    int m_run = 0;
    std::vector<analysis::HealthFinding> m_findings;
    std::vector<StepChart *> m_charts;

    QLabel *m_runLabel = nullptr;
    QComboBox *m_runBox = nullptr;
    ElidedLabel *m_info = nullptr;
    QLabel *m_message = nullptr;
    QListWidget *m_health = nullptr;
    QWidget *m_grid = nullptr;
    QGridLayout *m_gridLayout = nullptr;
    QDialog *m_viewer = nullptr;
    QPlainTextEdit *m_viewerText = nullptr;
    QString m_openedFile;
    qint64 m_openedLine = 0;
};

} // namespace stepscope::ui

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <QDialog>
#include <QElapsedTimer>

class QLabel;
class QProgressBar;
class QPushButton;

namespace stepscope::ui {

/// Progress of a background load: stage, bytes done of total, time left, and Cancel. Modeless
/// so the window stays usable; Cancel emits cancelRequested (the loader stops and drops partial
/// results; cancelling is not an error).
class LoadProgressDialog : public QDialog
{
    Q_OBJECT

public:
    explicit LoadProgressDialog(QWidget *parent = nullptr);

    /// Starts a new load of `path` (resets the clock and the bar).
    void begin(const QString &path);
    /// `done` of `total` bytes; 0 of 0 is a stage of unknown length (the analysis after the
    /// read): a busy bar and no byte count.
    void setProgress(const QString &stage, quint64 done, quint64 total);

    QString stageText() const;
    QString bytesText() const;
    /// True while the bar shows a stage of unknown length.
    bool isBusy() const;

    /// "12.3 MiB of 40.0 MiB" and "about 5 s left" (empty until an estimate makes sense).
    static QString formatBytesDone(quint64 done, quint64 total);
    static QString formatTimeLeft(qint64 elapsedMs, quint64 done, quint64 total);

public slots:
    /// Escape and the close button mean Cancel.
    void reject() override;

signals:
    void cancelRequested();

private:
    QLabel *m_path = nullptr;
    QLabel *m_stage = nullptr;
    QLabel *m_bytes = nullptr;
    QProgressBar *m_bar = nullptr;
    QPushButton *m_cancel = nullptr;
    QElapsedTimer m_clock;
};

} // namespace stepscope::ui

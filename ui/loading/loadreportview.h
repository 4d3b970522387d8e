// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "model/loadreport.h"

#include <QTreeWidget>

namespace stepscope::ui {

/// The load report dock: one row per diagnostic with severity, file (relative to the opened
/// folder), line or byte offset, message and repeat count; sortable. The same problem found
/// in many files or ranks (model::groupDiagnostics) is one row that opens on each of them, so
/// a thousand-rank load does not bury its one other warning under a thousand alike.
class LoadReportView : public QTreeWidget
{
    Q_OBJECT

public:
    explicit LoadReportView(QWidget *parent = nullptr);
    void setReport(const model::LoadReport &report);
    /// "file:line" / "file@offset" / "file".
    static QString position(const model::Diagnostic &d);
    /// What the empty table says (painted in its viewport when there are no rows).
    QString emptyText() const;

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void fitColumns();
    bool m_loaded = false;
};

} // namespace stepscope::ui

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "analysis/deltarow.h"
#include "analysis/kpis.h"

#include <QString>
#include <QWidget>

#include <string>
#include <vector>

class QHBoxLayout;
class QLabel;
class QToolButton;

namespace stepscope::ui {

/// The KPI strip of DESIGN.md: step time │ tokens/s │ MFU │ comm share │ data wait │ memory
/// peak. Shows what the analysis computed (analysis::computeKpis); a KPI without a value shows
/// "—", says in its tooltip which input is missing, and emits runConfigRequested when clicked
/// so the window can open the run-config dialog. Every KPI's tooltip gives its definition.
/// In compare mode each KPI reads "before → after (Δ %)" with the Δ % and its colour from the
/// comparison's KPI row (analysis::kpiDeltaRows: green where better, red where worse).
///
/// Used by the main window and, through QWidget::grab(), by the export. GUI thread only.
class KpiStrip : public QWidget
{
    Q_OBJECT
public:
    explicit KpiStrip(QWidget *parent = nullptr);

    void setKpis(const analysis::Kpis &kpis);
    /// `rows`: the comparison's KPI rows (analysis::RunComparison::kpiRows).
    void setComparison(const analysis::Kpis &before, const analysis::Kpis &after,
        const std::vector<analysis::DeltaRow> &rows);
    void clear();
    /// A caption before the KPIs saying what they cover ("whole runs, all ranks:"), with its
    /// tooltip; hidden when empty (one rank: the KPIs are that rank's).
    void setScope(const QString &caption, const QString &toolTip = QString());
    QString scope() const;

    /// The KPI keys shown, in order (keys of analysis::Kpi).
    static const std::vector<std::string> &shownKeys();
    /// Text and tooltip of one KPI as displayed (plain text), empty for an unknown key.
    QString text(const std::string &key) const;
    QString toolTip(const std::string &key) const;
    /// True when the KPI has no value (its click asks for the run config).
    bool isMissing(const std::string &key) const;
    /// Clicks the KPI as a user would (tests).
    void click(const std::string &key);

signals:
    void runConfigRequested();
    void kpiClicked(const QString &key);

private:
    QToolButton *button(const std::string &key) const;
    void build();

    QHBoxLayout *m_layout = nullptr;
    QLabel *m_scope = nullptr;
    std::vector<QToolButton *> m_buttons;
    std::vector<bool> m_missing;
};

/// "148 ms", "27.5 k tok/s", "31.0 %", "6.17 GiB": a KPI value in DESIGN.md's formats.
QString formatKpiValue(const analysis::Kpi &kpi);

} // namespace stepscope::ui

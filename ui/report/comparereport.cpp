// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "comparereport.h"

#include "analysis/compareoutput.h"
#include "analysis/convergence.h"
#include "analysis/units.h"
#include "ui/compare/comparepictures.h"
#include "ui/compare/memorybars.h"
#include "ui/export/imageexport.h"
#include "ui/panels/tableitems.h"
#include "ui/text.h"

#include <algorithm>
#include <set>

namespace stepscope::ui {

namespace {

QString valueText(const std::optional<double> &v, const std::string &unit, bool isDelta = false)
{
    return v ? qs(analysis::formatRowValue(unit, *v, isDelta)) : QStringLiteral("—");
}

CellTone toneOf(const analysis::DeltaRow &row)
{
    switch (row.verdict) {
    case analysis::Verdict::Improved:
        return CellTone::Better;
    case analysis::Verdict::Regressed:
        return CellTone::Worse;
    default:
        return CellTone::Plain;
    }
}

/// Rows as the compare view's Δ table shows them (same formatting functions).
ReportTable deltaTable(const QString &title, const std::vector<analysis::DeltaRow> &rows)
{
    ReportTable t;
    t.title = title;
    t.header = {QStringLiteral("metric"), QStringLiteral("before"), QStringLiteral("after"),
        QStringLiteral("Δ"), QStringLiteral("Δ %")};
    for (const analysis::DeltaRow &r : rows) {
        t.rows.push_back({qs(analysis::rowTitle(r)), valueText(r.before, r.unit),
            valueText(r.after, r.unit), valueText(r.delta, r.unit, true),
            r.percent ? qs(analysis::formatRowPercent(*r.percent)) : QStringLiteral("—")});
        const CellTone tone = toneOf(r);
        t.tones.push_back({CellTone::Plain, CellTone::Plain, CellTone::Plain, tone, tone});
    }
    return t;
}

/// Two clusters: the ranks whose step time changed most (analysis::largestRankDeltas).
ReportSection rankSection(const analysis::RunComparison &c)
{
    ReportSection section;
    section.title = QStringLiteral("Per-rank step time");
    section.paragraphs << QStringLiteral("%1 in both runs (%2 only before, %3 only "
                                         "after); mean step time over each rank's paired steps, "
                                         "the largest changes first.")
                              .arg(countText(static_cast<long long>(c.rankDeltas.size()),
                                  QStringLiteral("rank"), QStringLiteral("ranks")))
                              .arg(c.onlyBeforeRanks.size())
                              .arg(c.onlyAfterRanks.size());
    ReportTable t;
    t.header = {QStringLiteral("rank"), QStringLiteral("before"), QStringLiteral("after"),
        QStringLiteral("Δ"), QStringLiteral("Δ %")};
    for (const analysis::RankDelta *d : analysis::largestRankDeltas(c, 20)) {
        const analysis::DeltaRow &r = d->rows.front();
        t.rows.push_back({QString::number(d->rank), valueText(r.before, r.unit),
            valueText(r.after, r.unit), valueText(r.delta, r.unit, true),
            r.percent ? qs(analysis::formatRowPercent(*r.percent)) : QStringLiteral("—")});
        const CellTone tone = toneOf(r);
        t.tones.push_back({CellTone::Plain, CellTone::Plain, CellTone::Plain, tone, tone});
    }
    section.tables.push_back(t);
    return section;
}

QStringList headerRow(const compare::CompareSide &side, const QString &label,
    const analysis::RunComparison &c, bool after)
{
    const model::Session &session = *side.profile.session;
    std::set<std::string> devices;
    for (const auto &t : session.traces) {
        if (!t->metadata.device.empty())
            devices.insert(t->metadata.device);
    }
    QStringList deviceNames;
    for (const std::string &d : devices)
        deviceNames << qs(d);
    return {label, side.profile.path, qs(session.format), qs(analysis::rankCaption(c, after)),
        QString::number(side.breakdowns.size()),
        deviceNames.isEmpty() ? QStringLiteral("—") : deviceNames.join(QStringLiteral(", "))};
}

ReportTable kernelTable(const analysis::NameDeltaTable &t, bool perPairedStep)
{
    ReportTable table;
    table.title = perPairedStep ? QStringLiteral("Top kernels by |Δ time per paired step|")
                                : QStringLiteral("Top kernels by |Δ time|");
    // Totals over the paired steps (or the whole traces); Δ per paired step when there are
    // pairs, so that runs with different step counts compare.
    table.header = {QStringLiteral("kernel"), QStringLiteral("count before"),
        QStringLiteral("count after"), QStringLiteral("total before"),
        QStringLiteral("total after"),
        perPairedStep ? QStringLiteral("Δ per step") : QStringLiteral("Δ total"),
        QStringLiteral("median before"), QStringLiteral("median after"),
        QStringLiteral("share after")};
    for (const analysis::NameDelta &d : t.top) {
        QString name = qs(d.name);
        if (name.size() > 90)
            name = name.left(60) + QStringLiteral("…") + name.right(25);
        table.rows.push_back({name, QString::number(d.before.count), QString::number(d.after.count),
            qs(analysis::formatDuration(d.before.totalNs)),
            qs(analysis::formatDuration(d.after.totalNs)),
            qs(analysis::formatRowValue("ns", d.deltaTotalNs, true)),
            qs(analysis::formatMedian(d.before)), qs(analysis::formatMedian(d.after)),
            qs(analysis::formatShare(d.after.share))});
        const CellTone tone = d.deltaTotalNs < 0 ? CellTone::Better
            : d.deltaTotalNs > 0                 ? CellTone::Worse
                                                 : CellTone::Plain;
        table.tones.push_back({CellTone::Plain, CellTone::Plain, CellTone::Plain, CellTone::Plain,
            CellTone::Plain, tone, CellTone::Plain, CellTone::Plain, CellTone::Plain});
    }
    return table;
}

ReportTable bottleneckTable(const QString &title, const std::vector<analysis::Bottleneck> &list)
{
    ReportTable t;
    t.title = title;
    t.header = {QStringLiteral("#"), QStringLiteral("bottleneck"), QStringLiteral("share"),
        QStringLiteral("evidence")};
    int i = 1;
    for (const analysis::Bottleneck &b : list) {
        t.rows.push_back(
            {QString::number(i++), qs(std::string(analysis::bottleneckKindName(b.kind))),
                qs(analysis::formatShare(b.share)), qs(b.evidence)});
    }
    if (t.rows.empty())
        t.rows.push_back({QStringLiteral("–"), QStringLiteral("none found"), QString(), QString()});
    return t;
}

ReportTable diagnosticsTable(const compare::CompareSide &side)
{
    ReportTable t;
    t.title = side.name();
    t.header = {QStringLiteral("severity"), QStringLiteral("where"), QStringLiteral("message"),
        QStringLiteral("count")};
    // The same problem of many ranks is one row, as in the Diagnostics dock.
    const auto &diags = side.profile.session->report.diagnostics();
    for (const model::DiagnosticGroup &g : model::groupDiagnostics(diags)) {
        const model::Diagnostic &d = diags[g.members.front()];
        QString where = qs(d.file);
        if (d.line > 0)
            where += QStringLiteral(":%1").arg(d.line);
        else if (d.offset >= 0)
            where += QStringLiteral(" @%1").arg(d.offset);
        const QString message = qs(d.message + model::groupSuffix(g));
        t.rows.push_back({qs(std::string(model::severityName(d.severity))), where, message,
            QString::number(g.count)});
    }
    if (t.rows.empty())
        t.rows.push_back(
            {QStringLiteral("–"), QString(), QStringLiteral("no diagnostics"), QString()});
    return t;
}

/// The pictures' device pixel ratio: sharp on high-DPI screens and in print.
constexpr qreal Dpr = 2.0;

/// The sections of the profiles: KPIs, paired steps, ranks, bottlenecks, memory, kernels.
void addProfileSections(
    Report &report, const std::shared_ptr<const compare::CompareData> &data, QSize logical)
{
    const compare::CompareSide &before = data->before;
    const compare::CompareSide &after = data->after;
    const analysis::RunComparison &c = data->comparison;
    ReportSection kpis;
    kpis.title = QStringLiteral("KPIs");
    kpis.paragraphs << QStringLiteral("Green: better after the change; red: worse (the better "
                                      "direction depends on the metric; see docs/metrics.md).");
    if (const std::string scope = analysis::kpiScope(c); !scope.empty())
        kpis.paragraphs << qs(scope);
    kpis.tables.push_back(deltaTable(QString(), c.kpiRows));
    kpis.tables.push_back(
        deltaTable(QStringLiteral("Step breakdown, mean over paired steps"), c.meanStepRows));
    report.sections.push_back(kpis);

    ReportSection steps;
    steps.title = QStringLiteral("Step breakdown, paired");
    if (c.pairing.pairs.empty()) {
        steps.paragraphs << QStringLiteral("No steps could be paired.");
    } else {
        steps.images.push_back({QStringLiteral("Paired step times (before, after)"),
            QStringLiteral("steps_paired.png"),
            renderImage(compare::pairedStepBarsPainter(data), QSize(logical.width(), 300), Dpr)});
    }
    report.sections.push_back(steps);

    if (!c.rankDeltas.empty())
        report.sections.push_back(rankSection(c));

    ReportSection bottlenecks;
    bottlenecks.title = QStringLiteral("Bottlenecks");
    if (!c.bottleneckRows.empty())
        bottlenecks.tables.push_back(
            deltaTable(QStringLiteral("Share of step time"), c.bottleneckRows));
    bottlenecks.tables.push_back(bottleneckTable(before.name(), c.beforeBottlenecks));
    bottlenecks.tables.push_back(bottleneckTable(after.name(), c.afterBottlenecks));
    report.sections.push_back(bottlenecks);

    ReportSection memory;
    memory.title = QStringLiteral("Memory");
    if (c.memoryRows.empty())
        memory.paragraphs << QStringLiteral("Neither profile records memory (collect with "
                                            "profile_memory=True).");
    if (const compare::MemoryBars bars = compare::memoryBars(c.memoryRows); !bars.empty())
        memory.images.push_back(
            {bars.title + QStringLiteral(", before and after"), QStringLiteral("memory.png"),
                renderImage(compare::memoryBarsPainter(data), QSize(logical.width(), 300), Dpr)});
    if (!c.memoryRows.empty())
        memory.tables.push_back(deltaTable(QString(), c.memoryRows));
    report.sections.push_back(memory);

    ReportSection kernels;
    kernels.title = QStringLiteral("Kernel deltas");
    kernels.paragraphs << QStringLiteral("Device kernels, %1 (before %2 names, after %3 "
                                         "names; %4 only before, %5 only after).")
                              .arg(c.perPairedStep ? QStringLiteral("totals over the paired steps, "
                                                                    "Δ per paired step")
                                                   : QStringLiteral("totals over the whole traces"))
                              .arg(c.kernels.nameCountBefore)
                              .arg(c.kernels.nameCountAfter)
                              .arg(c.kernels.onlyBefore.size())
                              .arg(c.kernels.onlyAfter.size());
    kernels.tables.push_back(kernelTable(c.kernels, c.perPairedStep));
    report.sections.push_back(kernels);
}

/// The loss curves of both training logs, or why there are none.
void addLossSection(
    Report &report, const std::shared_ptr<const compare::CompareData> &data, QSize logical)
{
    const compare::CompareSide &before = data->before;
    const compare::CompareSide &after = data->after;
    const analysis::RunComparison &c = data->comparison;
    ReportSection loss;
    loss.title = QStringLiteral("Loss curves");
    if (c.loss) {
        const analysis::LossComparison &l = *c.loss;
        const compare::LossOverlay overlay =
            compare::makeLossOverlay(before.mainLog, after.mainLog, data->thresholds);
        // The verdict (smoothed curves), as the window's Loss tab and `stepscope compare` give
        // it, then the printed values' own figures.
        if (overlay.convergence)
            loss.paragraphs << qs(analysis::convergenceText(*overlay.convergence));
        loss.paragraphs << QStringLiteral(
            "Printed values: %1; max relative divergence %2, final %3.")
                               .arg(qs(analysis::commonStepsText(l.points.size(), l.finiteCount())))
                               .arg(l.maxRelative ? qs(analysis::formatRelative(*l.maxRelative))
                                                  : QStringLiteral("—"))
                               .arg(l.finalRelative ? qs(analysis::formatRelative(*l.finalRelative))
                                                    : QStringLiteral("—"));
        loss.images.push_back({QStringLiteral("Loss, before and after"), QStringLiteral("loss.png"),
            renderImage(compare::lossOverlayPainter(overlay), QSize(logical.width(), 300), Dpr)});
    } else {
        loss.paragraphs << QStringLiteral("No training log with a loss curve was found beside %1.")
                               .arg(!c.beforeLogSource.empty()
                                       ? after.name()
                                       : (!c.afterLogSource.empty()
                                               ? before.name()
                                               : QStringLiteral("either profile")));
    }
    if (!c.crossCheck.empty()) {
        std::vector<analysis::DeltaRow> rows;
        for (const analysis::TrainingDelta &r : c.crossCheck)
            rows.push_back(analysis::deltaRowOf(r));
        loss.tables.push_back(deltaTable(QStringLiteral("Logs' own figures (cross-check)"), rows));
    }
    report.sections.push_back(loss);
}

/// Before above after on the aligned step.
void addTimelineSection(
    Report &report, const std::shared_ptr<const compare::CompareData> &data, QSize logical)
{
    const compare::CompareSide &before = data->before;
    const compare::CompareSide &after = data->after;
    const analysis::RunComparison &c = data->comparison;
    ReportSection timelines;
    timelines.title = QStringLiteral("Timelines of the aligned step");
    if (!c.pairing.pairs.empty() && before.profile.timeline && after.profile.timeline) {
        timelines.images.push_back({QStringLiteral("Before above after, aligned on the step"),
            QStringLiteral("timelines_aligned.png"),
            renderImage(compare::alignedTimelinesPainter(data),
                QSize(logical.width(), std::max(logical.height(), 350)), Dpr)});
    } else {
        timelines.paragraphs << QStringLiteral("No aligned step.");
    }
    report.sections.push_back(timelines);
}

} // namespace

Report buildCompareReport(std::shared_ptr<const compare::CompareData> data, QSize imageSize)
{
    // The pictures are drawn at half their pixel size and twice the pixel density, so that
    // their text is the size of the page's text where the page shows them at their logical
    // width (a 1600 px picture at 1 : 1 shrank its 9 pt labels to 6 px in a 1200 px page).
    const QSize logical = imageSize / Dpr;
    Report report;
    if (!data || !data->before.profile.session || !data->after.profile.session)
        return report;
    const compare::CompareSide &before = data->before;
    const compare::CompareSide &after = data->after;
    const analysis::RunComparison &c = data->comparison;
    report.title = QStringLiteral("StepScope comparison: %1 → %2").arg(before.name(), after.name());
    report.summaryMarkdown =
        qs(analysis::compareMarkdown(c, data->beforeInfo(), data->afterInfo()));

    ReportSection header;
    header.title = QStringLiteral("Runs");
    ReportTable runs;
    runs.header = {QStringLiteral("run"), QStringLiteral("path"), QStringLiteral("format"),
        QStringLiteral("rank compared"), QStringLiteral("steps"), QStringLiteral("devices")};
    runs.rows.push_back(headerRow(before, QStringLiteral("before: ") + before.name(), c, false));
    runs.rows.push_back(headerRow(after, QStringLiteral("after: ") + after.name(), c, true));
    header.tables.push_back(runs);
    // Two training logs and no profile: the profile's sections would be empty tables and
    // "neither profile records memory"; only the logs' sections are written.
    const bool profiles = !data->logsOnly();
    if (profiles) {
        header.paragraphs << QStringLiteral("Rank %1 of before against rank %2 of after; %3, "
                                            "paired %4.")
                                 .arg(c.beforeRank)
                                 .arg(c.afterRank)
                                 .arg(countText(static_cast<long long>(c.pairing.pairs.size()),
                                     QStringLiteral("step pair"), QStringLiteral("step pairs")))
                                 .arg(qs(std::string(analysis::pairingModeName(c.pairing.mode))));
        // A side whose steps are ours (none in the profile): what its rows are.
        for (const std::string &note : c.stepNotes) {
            QString text = qs(note) + QLatin1Char('.');
            text[0] = text[0].toUpper();
            header.paragraphs << text;
        }
    } else {
        header.paragraphs << QStringLiteral("Training logs only, no profile: the loss curves "
                                            "and the logs' own figures are compared.");
    }
    report.sections.push_back(header);
    if (profiles)
        addProfileSections(report, data, logical);
    addLossSection(report, data, logical);
    if (profiles)
        addTimelineSection(report, data, logical);

    ReportSection diagnostics;
    diagnostics.title = QStringLiteral("Load diagnostics");
    diagnostics.tables.push_back(diagnosticsTable(before));
    diagnostics.tables.push_back(diagnosticsTable(after));
    report.sections.push_back(diagnostics);
    return report;
}

} // namespace stepscope::ui

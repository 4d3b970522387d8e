// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "comparereport.h"

#include "analysis/analysissummary.h"
#include "analysis/compare.h"
#include "analysis/losscompare.h"
#include "analysis/metricdefinitions.h"
#include "analysis/units.h"
#include "import/losslog/losslog.h"
#include "ui/export/viewexport.h"
#include "ui/palette.h"

#include <nlohmann/json.hpp>

#include <QFileInfo>
#include <QFontMetrics>
#include <QGuiApplication>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <filesystem>
#include <set>

namespace stepscope::ui {

namespace {

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<int>(s.size()));
}

/// Everything the report needs of one side, computed once.
struct SideAnalysis
{
    const CompareSide *side = nullptr;
    analysis::SessionAnalysis analysis;
    std::int32_t rank = 0;
    std::vector<analysis::StepBreakdown> rankSteps; ///< breakdowns of `rank`, by step
    const model::Trace *trace = nullptr;
};

SideAnalysis analyse(const CompareSide &side)
{
    SideAnalysis s;
    s.side = &side;
    s.analysis = analysis::analyzeSession(*side.session, side.config);
    if (!side.session->traces.empty()) {
        s.trace = side.session->traces.front().get();
        s.rank = s.trace->rank;
    }
    for (const analysis::StepBreakdown &b : s.analysis.breakdowns) {
        if (b.rank == s.rank)
            s.rankSteps.push_back(b);
    }
    return s;
}

QString formatValue(const std::optional<double> &v, const std::string &unit)
{
    if (!v)
        return QStringLiteral("—");
    if (unit == "us")
        return qs(analysis::formatDuration(static_cast<std::int64_t>(std::llround(*v * 1000))));
    if (unit == "fraction")
        return qs(analysis::formatShare(*v));
    if (unit == "bytes")
        return qs(analysis::formatBytes(static_cast<std::int64_t>(std::llround(*v))));
    return qs(analysis::formatSignificant(*v))
        + (unit.empty() ? QString() : QLatin1Char(' ') + qs(unit));
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

ReportTable deltaTable(const QString &title, const std::vector<analysis::DeltaRow> &rows)
{
    ReportTable t;
    t.title = title;
    t.header = {QStringLiteral("metric"), QStringLiteral("before"), QStringLiteral("after"),
        QStringLiteral("Δ"), QStringLiteral("Δ %")};
    for (const analysis::DeltaRow &r : rows) {
        QString delta = QStringLiteral("—");
        if (r.delta) {
            delta = formatValue(std::fabs(*r.delta), r.unit);
            delta.prepend(*r.delta < 0 ? QStringLiteral("−") : QStringLiteral("+"));
        }
        const QString pct =
            r.percent ? QString::asprintf("%+.1f %%", *r.percent) : QStringLiteral("—");
        // KPI rows carry their key as label: show the metric's title from docs/metrics.md.
        const analysis::MetricDefinition *definition = analysis::metricDefinition(r.key);
        const QString label = definition && r.label == r.key ? qs(definition->title) : qs(r.label);
        t.rows.push_back(
            {label, formatValue(r.before, r.unit), formatValue(r.after, r.unit), delta, pct});
        const CellTone tone = toneOf(r);
        t.tones.push_back({CellTone::Plain, CellTone::Plain, CellTone::Plain, tone, tone});
    }
    return t;
}

QStringList headerRow(const SideAnalysis &s, const QString &label)
{
    const model::Session &session = *s.side->session;
    std::set<std::string> devices;
    std::size_t steps = 0;
    for (const auto &t : session.traces) {
        if (!t->metadata.device.empty())
            devices.insert(t->metadata.device);
        steps += t->steps.size();
    }
    QStringList ranks;
    for (const auto &t : session.traces)
        ranks << QString::number(t->rank);
    QStringList deviceNames;
    for (const std::string &d : devices)
        deviceNames << QString::fromStdString(d);
    return {label, s.side->path, QString::fromStdString(session.format),
        ranks.join(QStringLiteral(", ")), QString::number(steps),
        deviceNames.isEmpty() ? QStringLiteral("—") : deviceNames.join(QStringLiteral(", "))};
}

/// Paired stacked bars: for each paired step, "before" above "after", one colour per
/// segment kind, on a common ms axis.
PaintFunction pairedStepBars(
    std::vector<std::pair<analysis::StepBreakdown, analysis::StepBreakdown>> pairs,
    QString beforeName, QString afterName)
{
    return [pairs = std::move(pairs), beforeName, afterName](QPainter &p, const QSize &size) {
        const QFont font = QGuiApplication::font();
        const QFontMetrics fm(font);
        p.setFont(font);
        const int left = 150;
        const int right = 90;
        const int top = 10;
        const int legendH = 28;
        const int axisH = 24;
        const int n = static_cast<int>(pairs.size());
        std::int64_t maxNs = 1;
        for (const auto &[b, a] : pairs)
            maxNs = std::max({maxNs, b.durationNs(), a.durationNs()});
        const int plotW = std::max(10, size.width() - left - right);
        const int avail = size.height() - top - legendH - axisH;
        const int groupH = n > 0 ? std::max(8, avail / n) : 0;
        const int barH = std::max(3, groupH * 2 / 5);
        const auto drawBar = [&](const analysis::StepBreakdown &s, int y) {
            double x = left;
            for (int k = 0; k < analysis::SegmentKindCount; ++k) {
                const auto kind = static_cast<analysis::SegmentKind>(k);
                const double w =
                    static_cast<double>(s.segmentNs(kind)) / static_cast<double>(maxNs) * plotW;
                if (w <= 0)
                    continue;
                p.fillRect(QRectF(x, y, w, barH), segmentColor(kind));
                x += w;
            }
            p.setPen(QColor(0x30, 0x30, 0x30));
            p.drawText(QRectF(x + 4, y, 120, barH), Qt::AlignVCenter | Qt::AlignLeft,
                qs(analysis::formatDuration(s.durationNs())));
        };
        for (int i = 0; i < n; ++i) {
            const auto &[b, a] = pairs[static_cast<std::size_t>(i)];
            const int y = top + i * groupH;
            p.setPen(QColor(0x20, 0x20, 0x20));
            p.drawText(QRect(4, y, left - 8, barH), Qt::AlignVCenter | Qt::AlignRight,
                fm.elidedText(QStringLiteral("%1 · step %2").arg(beforeName).arg(b.step),
                    Qt::ElideMiddle, left - 8));
            p.drawText(QRect(4, y + barH + 2, left - 8, barH), Qt::AlignVCenter | Qt::AlignRight,
                fm.elidedText(QStringLiteral("%1 · step %2").arg(afterName).arg(a.step),
                    Qt::ElideMiddle, left - 8));
            drawBar(b, y);
            drawBar(a, y + barH + 2);
        }
        // Axis with ms ticks.
        const int axisY = top + n * groupH + 4;
        p.setPen(QColor(0x80, 0x80, 0x80));
        p.drawLine(left, axisY, left + plotW, axisY);
        for (int t = 0; t <= 4; ++t) {
            const int x = left + plotW * t / 4;
            p.drawLine(x, axisY, x, axisY + 4);
            p.drawText(QRect(x - 50, axisY + 4, 100, axisH - 4), Qt::AlignHCenter | Qt::AlignTop,
                qs(analysis::formatDuration(maxNs * t / 4)));
        }
        // Legend.
        int x = left;
        const int ly = axisY + axisH;
        for (int k = 0; k < analysis::SegmentKindCount; ++k) {
            const auto kind = static_cast<analysis::SegmentKind>(k);
            const QString label = qs(analysis::segmentKindName(kind));
            p.fillRect(QRect(x, ly + 6, 12, 12), segmentColor(kind));
            p.setPen(QColor(0x20, 0x20, 0x20));
            p.drawText(
                QRect(x + 16, ly, fm.horizontalAdvance(label) + 4, 24), Qt::AlignVCenter, label);
            x += 16 + fm.horizontalAdvance(label) + 14;
        }
    };
}

/// Both loss curves on one step axis; NaN/inf values are marked with a red tick.
PaintFunction lossOverlay(const model::LogSeries &before, const model::LogSeries &after,
    QString beforeName, QString afterName)
{
    return [before, after, beforeName, afterName](QPainter &p, const QSize &size) {
        const QFont font = QGuiApplication::font();
        p.setFont(font);
        const QRect plot(70, 10, size.width() - 90, size.height() - 60);
        double lo = INFINITY;
        double hi = -INFINITY;
        std::int64_t s0 = INT64_MAX;
        std::int64_t s1 = INT64_MIN;
        for (const model::LogSeries *s : {&before, &after}) {
            for (std::size_t i = 0; i < s->size(); ++i) {
                s0 = std::min(s0, s->steps[i]);
                s1 = std::max(s1, s->steps[i]);
                if (std::isfinite(s->values[i])) {
                    lo = std::min(lo, s->values[i]);
                    hi = std::max(hi, s->values[i]);
                }
            }
        }
        if (!(lo <= hi) || s0 > s1)
            return;
        if (hi == lo)
            hi = lo + 1;
        if (s1 == s0)
            s1 = s0 + 1;
        const auto px = [&](std::int64_t step) {
            return plot.left()
                + static_cast<double>(step - s0) / static_cast<double>(s1 - s0) * plot.width();
        };
        const auto py = [&](double v) {
            return plot.bottom() - (v - lo) / (hi - lo) * plot.height();
        };
        p.setPen(QColor(0xd8, 0xd8, 0xd8));
        p.drawRect(plot);
        p.setPen(QColor(0x40, 0x40, 0x40));
        for (int t = 0; t <= 4; ++t) {
            const double v = lo + (hi - lo) * t / 4;
            p.drawText(QRectF(0, py(v) - 8, plot.left() - 6, 16), Qt::AlignRight | Qt::AlignVCenter,
                qs(analysis::formatSignificant(v)));
            const std::int64_t st = s0 + (s1 - s0) * t / 4;
            p.drawText(QRectF(px(st) - 40, plot.bottom() + 4, 80, 16), Qt::AlignHCenter,
                QString::number(st));
        }
        const std::array<QColor, 2> colors = {QColor(0x00, 0x72, 0xB2), QColor(0xD5, 0x5E, 0x00)};
        const std::array<const model::LogSeries *, 2> series = {&before, &after};
        for (std::size_t k = 0; k < 2; ++k) {
            QPainterPath path;
            bool open = false;
            for (std::size_t i = 0; i < series[k]->size(); ++i) {
                const double v = series[k]->values[i];
                const double x = px(series[k]->steps[i]);
                if (!std::isfinite(v)) {
                    p.setPen(QPen(QColor(0xB0, 0x00, 0x20), 2));
                    p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.top() + 8));
                    open = false;
                    continue;
                }
                if (open)
                    path.lineTo(x, py(v));
                else
                    path.moveTo(x, py(v));
                open = true;
            }
            p.setPen(QPen(colors[k], 1.5));
            p.drawPath(path);
        }
        const int ly = size.height() - 24;
        p.fillRect(QRect(plot.left(), ly + 6, 12, 12), colors[0]);
        p.setPen(QColor(0x20, 0x20, 0x20));
        p.drawText(QRect(plot.left() + 16, ly, 400, 24), Qt::AlignVCenter,
            beforeName + QStringLiteral(" (before)"));
        p.fillRect(QRect(plot.left() + 420, ly + 6, 12, 12), colors[1]);
        p.drawText(QRect(plot.left() + 436, ly, 400, 24), Qt::AlignVCenter,
            afterName + QStringLiteral(" (after)"));
    };
}

struct LossLogs
{
    std::optional<model::TrainingLog> before;
    std::optional<model::TrainingLog> after;
};

std::optional<model::TrainingLog> findLog(const CompareSide &side)
{
    std::filesystem::path dir = side.path.toStdString();
    if (!std::filesystem::is_directory(dir))
        dir = dir.parent_path();
    for (const auto &file : import::losslog::findTrainingLogs(dir, 2)) {
        model::LoadReport report;
        model::TrainingLog log = import::losslog::readTrainingLog(file, report);
        if (log.primaryLoss())
            return log;
    }
    return std::nullopt;
}

std::vector<analysis::DeltaRow> memoryRows(const SideAnalysis &b, const SideAnalysis &a)
{
    const auto summaryOf = [](const SideAnalysis &s) -> const analysis::MemorySummary * {
        for (const analysis::MemorySummary &m : s.analysis.memory) {
            if (m.rank == s.rank)
                return &m;
        }
        return nullptr;
    };
    const analysis::MemorySummary *mb = summaryOf(b);
    const analysis::MemorySummary *ma = summaryOf(a);
    std::vector<analysis::DeltaRow> rows;
    if (!mb && !ma)
        return rows;
    const auto opt = [](const std::optional<std::int64_t> &v) -> std::optional<double> {
        return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
    };
    rows.push_back(analysis::makeDeltaRow("memory.peak_allocated", "peak allocated", "bytes",
        mb ? opt(mb->peakAllocatedBytes) : std::nullopt,
        ma ? opt(ma->peakAllocatedBytes) : std::nullopt, analysis::Better::Lower));
    rows.push_back(analysis::makeDeltaRow("memory.peak_reserved", "peak reserved", "bytes",
        mb ? opt(mb->peakReservedBytes) : std::nullopt,
        ma ? opt(ma->peakReservedBytes) : std::nullopt, analysis::Better::Lower));
    if ((mb && mb->hasGroups) || (ma && ma->hasGroups)) {
        for (int g = 0; g < analysis::MemoryGroupCount; ++g) {
            const auto group = static_cast<analysis::MemoryGroup>(g);
            const auto value = [&](const analysis::MemorySummary *m) -> std::optional<double> {
                if (!m || !m->hasGroups)
                    return std::nullopt;
                return static_cast<double>(m->byGroupAtPeak[static_cast<std::size_t>(g)]);
            };
            rows.push_back(
                analysis::makeDeltaRow("memory." + std::string(analysis::memoryGroupKey(group)),
                    std::string(analysis::memoryGroupName(group)) + " at peak", "bytes", value(mb),
                    value(ma), analysis::Better::Lower));
        }
    }
    return rows;
}

analysis::NameDeltaTable kernelDeltas(const SideAnalysis &b, const SideAnalysis &a)
{
    analysis::NameDeltaOptions options;
    options.topN = 15;
    options.beforeDivisor = std::max<double>(1, static_cast<double>(b.rankSteps.size()));
    options.afterDivisor = std::max<double>(1, static_cast<double>(a.rankSteps.size()));
    if (!b.trace || !a.trace)
        return {};
    return analysis::nameDeltas(*b.trace, *a.trace, options);
}

ReportTable kernelTable(const analysis::NameDeltaTable &t)
{
    ReportTable table;
    table.title = QStringLiteral("Top kernels by |Δ time per step|");
    table.header = {QStringLiteral("kernel"), QStringLiteral("count before"),
        QStringLiteral("count after"), QStringLiteral("total before"),
        QStringLiteral("total after"), QStringLiteral("Δ per step"), QStringLiteral("share after")};
    for (const analysis::NameDelta &d : t.top) {
        const QString delta = (d.deltaTotalNs < 0 ? QStringLiteral("−") : QStringLiteral("+"))
            + qs(analysis::formatDuration(
                static_cast<std::int64_t>(std::llround(std::fabs(d.deltaTotalNs)))));
        QString name = QString::fromStdString(d.name);
        if (name.size() > 90)
            name = name.left(60) + QStringLiteral("…") + name.right(25);
        table.rows.push_back({name, QString::number(d.before.count), QString::number(d.after.count),
            qs(analysis::formatDuration(d.before.totalNs)),
            qs(analysis::formatDuration(d.after.totalNs)), delta,
            qs(analysis::formatShare(d.after.share))});
        const CellTone tone = d.deltaTotalNs < 0 ? CellTone::Better
            : d.deltaTotalNs > 0                 ? CellTone::Worse
                                                 : CellTone::Plain;
        table.tones.push_back({CellTone::Plain, CellTone::Plain, CellTone::Plain, CellTone::Plain,
            CellTone::Plain, tone, CellTone::Plain});
    }
    return table;
}

ReportTable bottleneckTable(const SideAnalysis &s)
{
    ReportTable t;
    t.title = s.side->name;
    t.header = {QStringLiteral("#"), QStringLiteral("bottleneck"), QStringLiteral("share"),
        QStringLiteral("evidence")};
    int i = 1;
    for (const analysis::Bottleneck &b : s.analysis.bottlenecks) {
        t.rows.push_back({QString::number(i++), qs(analysis::bottleneckKindName(b.kind)),
            qs(analysis::formatShare(b.share)), QString::fromStdString(b.evidence)});
    }
    if (t.rows.empty())
        t.rows.push_back({QStringLiteral("–"), QStringLiteral("none found"), QString(), QString()});
    return t;
}

ReportTable diagnosticsTable(const CompareSide &side)
{
    ReportTable t;
    t.title = side.name;
    t.header = {QStringLiteral("severity"), QStringLiteral("where"), QStringLiteral("message"),
        QStringLiteral("count")};
    for (const model::Diagnostic &d : side.session->report.diagnostics()) {
        QString where = QString::fromStdString(d.file);
        if (d.line > 0)
            where += QStringLiteral(":%1").arg(d.line);
        else if (d.offset >= 0)
            where += QStringLiteral(" @%1").arg(d.offset);
        t.rows.push_back({qs(model::severityName(d.severity)), where,
            QString::fromStdString(d.message), QString::number(d.count)});
    }
    if (t.rows.empty())
        t.rows.push_back(
            {QStringLiteral("–"), QString(), QStringLiteral("no diagnostics"), QString()});
    return t;
}

QImage render(const PaintFunction &paint, QSize size)
{
    return renderImage(paint, size, 1.0);
}

} // namespace

Report buildCompareReport(const CompareSide &before, const CompareSide &after, QSize imageSize)
{
    const SideAnalysis b = analyse(before);
    const SideAnalysis a = analyse(after);
    Report report;
    report.title = QStringLiteral("StepScope comparison: %1 → %2").arg(before.name, after.name);

    ReportSection header;
    header.title = QStringLiteral("Runs");
    ReportTable runs;
    runs.header = {QStringLiteral("run"), QStringLiteral("path"), QStringLiteral("format"),
        QStringLiteral("ranks"), QStringLiteral("steps"), QStringLiteral("devices")};
    runs.rows.push_back(headerRow(b, QStringLiteral("before: ") + before.name));
    runs.rows.push_back(headerRow(a, QStringLiteral("after: ") + after.name));
    header.tables.push_back(runs);
    const analysis::StepPairing pairing = analysis::pairSteps(b.rankSteps, a.rankSteps);
    header.paragraphs << QStringLiteral("Rank %1 of each run; %2 step pair(s), paired %3.")
                             .arg(b.rank)
                             .arg(pairing.pairs.size())
                             .arg(pairing.mode == analysis::PairingMode::ByNumber
                                     ? QStringLiteral("by step number")
                                     : QStringLiteral("by order of the profiled steps"));
    report.sections.push_back(header);

    ReportSection kpis;
    kpis.title = QStringLiteral("KPIs");
    kpis.paragraphs << QStringLiteral("Green: better after the change; red: worse (the better "
                                      "direction depends on the metric; see docs/metrics.md).");
    kpis.tables.push_back(
        deltaTable(QString(), analysis::kpiDeltaRows(b.analysis.kpis, a.analysis.kpis)));
    kpis.tables.push_back(deltaTable(QStringLiteral("Step breakdown, mean over paired steps"),
        analysis::meanStepDeltaRows(b.rankSteps, a.rankSteps, pairing)));
    report.sections.push_back(kpis);

    ReportSection steps;
    steps.title = QStringLiteral("Step breakdown, paired");
    std::vector<std::pair<analysis::StepBreakdown, analysis::StepBreakdown>> pairs;
    for (const analysis::StepPair &pr : pairing.pairs)
        pairs.emplace_back(b.rankSteps[pr.beforeIndex], a.rankSteps[pr.afterIndex]);
    if (pairs.empty()) {
        steps.paragraphs << QStringLiteral("No steps could be paired.");
    } else {
        const int height = std::clamp(80 + static_cast<int>(pairs.size()) * 56, 240, 1400);
        steps.images.push_back({QStringLiteral("Paired step breakdown (before above after)"),
            QStringLiteral("steps_paired.png"),
            render(
                pairedStepBars(pairs, before.name, after.name), QSize(imageSize.width(), height))});
    }
    report.sections.push_back(steps);

    ReportSection bottlenecks;
    bottlenecks.title = QStringLiteral("Bottlenecks");
    bottlenecks.tables.push_back(bottleneckTable(b));
    bottlenecks.tables.push_back(bottleneckTable(a));
    report.sections.push_back(bottlenecks);

    ReportSection memory;
    memory.title = QStringLiteral("Memory");
    const auto memRows = memoryRows(b, a);
    if (memRows.empty())
        memory.paragraphs << QStringLiteral("Neither profile records memory (collect with "
                                            "profile_memory=True).");
    else
        memory.tables.push_back(deltaTable(QString(), memRows));
    report.sections.push_back(memory);

    ReportSection kernels;
    kernels.title = QStringLiteral("Kernel deltas");
    const analysis::NameDeltaTable kd = kernelDeltas(b, a);
    kernels.paragraphs << QStringLiteral("Device kernels, totals per profiled step (before %1 "
                                         "names, after %2 names; %3 only before, %4 only after).")
                              .arg(kd.nameCountBefore)
                              .arg(kd.nameCountAfter)
                              .arg(kd.onlyBefore.size())
                              .arg(kd.onlyAfter.size());
    kernels.tables.push_back(kernelTable(kd));
    report.sections.push_back(kernels);

    ReportSection loss;
    loss.title = QStringLiteral("Loss curves");
    const std::optional<model::TrainingLog> lb = findLog(before);
    const std::optional<model::TrainingLog> la = findLog(after);
    if (lb && la) {
        const model::LogSeries &sb = *lb->primaryLoss();
        const model::LogSeries &sa = *la->primaryLoss();
        const analysis::LossComparison cmp = analysis::compareLoss(sb, sa);
        loss.paragraphs << QStringLiteral("%1 common steps; max relative divergence %2, final %3.")
                               .arg(cmp.points.size())
                               .arg(cmp.maxRelative ? qs(analysis::formatShare(*cmp.maxRelative))
                                                    : QStringLiteral("—"))
                               .arg(cmp.finalRelative
                                       ? qs(analysis::formatShare(*cmp.finalRelative))
                                       : QStringLiteral("—"));
        loss.images.push_back({QStringLiteral("Loss, before and after"), QStringLiteral("loss.png"),
            render(lossOverlay(sb, sa, before.name, after.name), QSize(imageSize.width(), 420))});
    } else {
        loss.paragraphs << QStringLiteral("No training log with a loss curve was found beside %1.")
                               .arg(lb ? after.name
                                       : (la ? before.name : QStringLiteral("either profile")));
    }
    report.sections.push_back(loss);

    ReportSection timelines;
    timelines.title = QStringLiteral("Timelines of the aligned step");
    if (!pairs.empty()) {
        const auto &[sb, sa] = pairs.front();
        const auto timelineImage = [&](const CompareSide &side, std::int64_t step,
                                       const QString &file) {
            TimeSelection sel;
            sel.step = step;
            const QString title =
                QStringLiteral("%1 — rank %2, step %3").arg(side.name).arg(b.rank).arg(step);
            return ReportImage {title, file,
                render(viewPainter(side.session, ExportView::Timeline, sel, side.config, title),
                    imageSize)};
        };
        timelines.images.push_back(
            timelineImage(before, sb.step, QStringLiteral("timeline_before.png")));
        timelines.images.push_back(
            timelineImage(after, sa.step, QStringLiteral("timeline_after.png")));
    } else {
        timelines.paragraphs << QStringLiteral("No aligned step.");
    }
    report.sections.push_back(timelines);

    ReportSection diagnostics;
    diagnostics.title = QStringLiteral("Load diagnostics");
    diagnostics.tables.push_back(diagnosticsTable(before));
    diagnostics.tables.push_back(diagnosticsTable(after));
    report.sections.push_back(diagnostics);
    return report;
}

nlohmann::json compareJson(const CompareSide &before, const CompareSide &after)
{
    const SideAnalysis b = analyse(before);
    const SideAnalysis a = analyse(after);
    const auto rowsJson = [](const std::vector<analysis::DeltaRow> &rows) {
        nlohmann::json out = nlohmann::json::array();
        for (const analysis::DeltaRow &r : rows) {
            nlohmann::json j;
            j["key"] = r.key;
            j["label"] = r.label;
            j["unit"] = r.unit;
            j["before"] = r.before ? nlohmann::json(*r.before) : nlohmann::json();
            j["after"] = r.after ? nlohmann::json(*r.after) : nlohmann::json();
            j["delta"] = r.delta ? nlohmann::json(*r.delta) : nlohmann::json();
            j["percent"] = r.percent ? nlohmann::json(*r.percent) : nlohmann::json();
            j["verdict"] = std::string(analysis::verdictName(r.verdict));
            out.push_back(std::move(j));
        }
        return out;
    };
    nlohmann::json j;
    j["before"] = {
        {"path", before.path.toStdString()}, {"format", before.session->format}, {"rank", b.rank}};
    j["after"] = {
        {"path", after.path.toStdString()}, {"format", after.session->format}, {"rank", a.rank}};
    const analysis::StepPairing pairing = analysis::pairSteps(b.rankSteps, a.rankSteps);
    j["pairing"] = std::string(analysis::pairingModeName(pairing.mode));
    j["kpis"] = rowsJson(analysis::kpiDeltaRows(b.analysis.kpis, a.analysis.kpis));
    j["mean_step"] = rowsJson(analysis::meanStepDeltaRows(b.rankSteps, a.rankSteps, pairing));
    nlohmann::json perStep = nlohmann::json::array();
    for (const analysis::StepPair &p : pairing.pairs) {
        perStep.push_back({{"before_step", p.beforeStep}, {"after_step", p.afterStep},
            {"rows",
                rowsJson(analysis::stepDeltaRows(
                    b.rankSteps[p.beforeIndex], a.rankSteps[p.afterIndex]))}});
    }
    j["steps"] = std::move(perStep);
    j["memory"] = rowsJson(memoryRows(b, a));
    const analysis::NameDeltaTable kd = kernelDeltas(b, a);
    nlohmann::json kernels = nlohmann::json::array();
    for (const analysis::NameDelta &d : kd.top) {
        kernels.push_back({{"name", d.name}, {"count_before", d.before.count},
            {"count_after", d.after.count}, {"total_before_ns", d.before.totalNs},
            {"total_after_ns", d.after.totalNs}, {"delta_per_step_ns", d.deltaTotalNs},
            {"only_before", d.onlyBefore}, {"only_after", d.onlyAfter}});
    }
    j["kernels"] = std::move(kernels);
    j["bottlenecks_before"] = nlohmann::json::array();
    for (const analysis::Bottleneck &bn : b.analysis.bottlenecks)
        j["bottlenecks_before"].push_back(
            {{"kind", std::string(analysis::bottleneckKindKey(bn.kind))}, {"share", bn.share}});
    j["bottlenecks_after"] = nlohmann::json::array();
    for (const analysis::Bottleneck &bn : a.analysis.bottlenecks)
        j["bottlenecks_after"].push_back(
            {{"kind", std::string(analysis::bottleneckKindKey(bn.kind))}, {"share", bn.share}});
    return j;
}

} // namespace stepscope::ui

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "viewexport.h"

#include "analysis/analysissummary.h"
#include "ui/palette.h"
#include "ui/panels/clusterpanel.h"
#include "ui/panels/communicationpanel.h"
#include "ui/panels/kernelspanel.h"
#include "ui/panels/memorypanel.h"
#include "ui/panels/stepspanel.h"
#include "ui/panels/trainingpanel.h"
#include "ui/timeline/geometrybuilder.h"
#include "ui/timeline/timelinemodel.h"
#include "ui/timeline/viewstate.h"

#include <QDir>
#include <QFontMetrics>
#include <QGuiApplication>
#include <QPainter>
#include <QScrollArea>

#include <algorithm>
#include <functional>
#include <iterator>

namespace stepscope::ui {

namespace {

constexpr int TitleHeight = 28;

/// The timeline of `model` over `window`, as the window's view draws it.
PaintFunction timelineBody(
    std::shared_ptr<const timeline::TimelineModel> model, std::pair<qint64, qint64> window)
{
    return [model = std::move(model), window](QPainter &p, const QSize &size) {
        timeline::TimelineMetrics metrics;
        timeline::ViewState view;
        view.axis.setWidth(std::max(1, size.width() - metrics.headerWidth));
        view.axis.setStart(window.first);
        view.axis.setBreaks(model->breaks());
        view.axis.fit(window.first, window.second);
        view.rulerOriginNs = model->extent().first; // as the window's ruler
        timeline::paintTimeline(p, *model, view, size, metrics, QGuiApplication::font());
    };
}

/// Renders a panel widget; the widget lives as long as the paint function. The Steps,
/// Memory, Communication, Kernels and Cluster panels show `analysed` (the export's one analysis);
/// the Training panel reads the session's logs. The Memory panel counts its times from the
/// ruler zeros of `ruler` (the export's timeline model), as the window shows them.
/// `setup` runs on the panel once it holds the analysis (the Kernels panel's step); `scope`
/// receives what it then shows (panelScope).
template <typename Panel>
PaintFunction panelBody(std::shared_ptr<const model::Session> session,
    std::shared_ptr<const analysis::SessionAnalysis> analysed, const analysis::RunConfig &config,
    bool hasConfig, QString *scope, const timeline::TimelineModel *ruler = nullptr,
    const std::function<void(Panel &)> &setup = {})
{
    std::shared_ptr<Panel> panel = std::make_shared<Panel>();
    if constexpr (std::is_same_v<Panel, StepsPanel>) {
        panel->setAnalysis(std::move(session), std::move(analysed));
    } else if constexpr (std::is_same_v<Panel, ClusterPanel>) {
        panel->setInteractive(false);
        panel->setAnalysis(std::move(analysed));
        panel->setSession(std::move(session));
    } else if constexpr (std::is_same_v<Panel,
                             CommunicationPanel> || std::is_same_v<Panel, KernelsPanel>) {
        panel->setAnalysis(std::move(session), std::move(analysed));
    } else if constexpr (std::is_same_v<Panel, TrainingPanel>) {
        panel->setSession(std::move(session));
    } else if constexpr (std::is_same_v<Panel, MemoryPanel>) {
        if (hasConfig)
            panel->setRunConfig(config);
        panel->setAnalysis(std::move(session), std::move(analysed),
            ruler ? ruler->rulerZeros() : std::map<int, std::int64_t> {});
    } else {
        if (hasConfig)
            panel->setRunConfig(config);
        panel->setAnalysis(std::move(session), std::move(analysed));
    }
    if (setup)
        setup(*panel);
    *scope = panelScope(*panel);
    panel->setAttribute(Qt::WA_DontShowOnScreen);
    panel->show();
    PaintFunction render = widgetPainter(panel.get());
    return [panel, render](QPainter &p, const QSize &size) { render(p, size); };
}

bool needsAnalysis(ExportView view)
{
    return view != ExportView::Training;
}

/// The views that draw the timeline or count their times from its ruler.
bool needsTimeline(ExportView view)
{
    return view == ExportView::Timeline || view == ExportView::Memory;
}

} // namespace

QString panelScope(const QWidget &panel)
{
    if (const auto *area = qobject_cast<const QScrollArea *>(&panel)) // a dock's scroll area
        return area->widget() ? panelScope(*area->widget()) : QString();
    if (const auto *steps = qobject_cast<const StepsPanel *>(&panel))
        return steps->showsMessage() ? QString()
                                     : QStringLiteral(", rank %1").arg(steps->currentRank());
    if (const auto *memory = qobject_cast<const MemoryPanel *>(&panel))
        return memory->showsMessage() ? QString()
                                      : QStringLiteral(", rank %1").arg(memory->currentRank());
    if (const auto *kernels = qobject_cast<const KernelsPanel *>(&panel)) {
        if (kernels->showsMessage())
            return {};
        QString scope = QStringLiteral(", rank %1").arg(kernels->currentRank());
        if (kernels->currentStep())
            scope += QStringLiteral(", step %1").arg(*kernels->currentStep());
        return scope;
    }
    return {};
}

PaintFunction withTitle(const QString &title, PaintFunction body)
{
    return [title, body = std::move(body)](QPainter &p, const QSize &size) {
        QFont font = QGuiApplication::font();
        font.setBold(true);
        p.save();
        p.setFont(font);
        p.setPen(paperTextColor());
        p.drawText(QRect(8, 0, size.width() - 16, TitleHeight), Qt::AlignVCenter | Qt::AlignLeft,
            QFontMetrics(font).elidedText(title, Qt::ElideMiddle, size.width() - 16));
        p.restore();
        p.save();
        p.translate(0, TitleHeight);
        p.setClipRect(QRect(0, 0, size.width(), size.height() - TitleHeight));
        body(p, QSize(size.width(), size.height() - TitleHeight));
        p.restore();
    };
}

QString exportViewName(ExportView view)
{
    switch (view) {
    case ExportView::Timeline:
        return QStringLiteral("timeline");
    case ExportView::Steps:
        return QStringLiteral("steps");
    case ExportView::Memory:
        return QStringLiteral("memory");
    case ExportView::Communication:
        return QStringLiteral("communication");
    case ExportView::Kernels:
        return QStringLiteral("kernels");
    case ExportView::Cluster:
        return QStringLiteral("cluster");
    case ExportView::Training:
        return QStringLiteral("training");
    }
    return {};
}

std::optional<ExportView> exportViewFromName(const QString &name)
{
    for (ExportView v :
        {ExportView::Timeline, ExportView::Steps, ExportView::Memory, ExportView::Communication,
            ExportView::Kernels, ExportView::Cluster, ExportView::Training}) {
        if (exportViewName(v) == name)
            return v;
    }
    return std::nullopt;
}

bool checkSelection(
    const analysis::SessionAnalysis &analysed, const TimeSelection &selection, QString *error)
{
    if (selection.step) {
        const auto &rows = analysed.breakdowns;
        if (std::none_of(rows.begin(), rows.end(),
                [&](const analysis::StepBreakdown &b) { return b.step == *selection.step; })) {
            if (error) {
                const auto [lo, hi] = std::minmax_element(rows.begin(), rows.end(),
                    [](const analysis::StepBreakdown &a, const analysis::StepBreakdown &b) {
                        return a.step < b.step;
                    });
                *error = rows.empty()
                    ? QStringLiteral("step %1 is not in the profile, which has no steps")
                          .arg(*selection.step)
                    : lo->step == hi->step
                    ? QStringLiteral("step %1 is not in the profile (its step: %2)")
                          .arg(*selection.step)
                          .arg(lo->step)
                    : QStringLiteral("step %1 is not in the profile (its steps: %2 … %3)")
                          .arg(*selection.step)
                          .arg(lo->step)
                          .arg(hi->step);
            }
            return false;
        }
    }
    if (selection.rangeUs && selection.rangeUs->second <= selection.rangeUs->first) {
        if (error)
            *error = QStringLiteral("the range %1:%2 is empty")
                         .arg(selection.rangeUs->first)
                         .arg(selection.rangeUs->second);
        return false;
    }
    return true;
}

std::optional<std::pair<qint64, qint64>> resolveSelection(const timeline::TimelineModel &model,
    const analysis::SessionAnalysis &analysed, const TimeSelection &selection, QString *error)
{
    if (!checkSelection(analysed, selection, error))
        return std::nullopt;
    if (selection.step) {
        const auto &traces = model.session().traces;
        std::optional<std::pair<qint64, qint64>> window;
        for (const analysis::StepBreakdown &b : analysed.breakdowns) {
            if (b.step != *selection.step)
                continue;
            // The rank's first trace, as MainWindow::showRankTime places a Steps row.
            const auto trace = std::find_if(
                traces.begin(), traces.end(), [&](const auto &t) { return t->rank == b.rank; });
            if (trace == traces.end())
                continue;
            const std::int64_t offset =
                model.offsetNs(static_cast<int>(std::distance(traces.begin(), trace)));
            const qint64 start = b.startNs + offset;
            const qint64 end = std::max<qint64>(b.endNs + offset, start + 1000);
            window = window
                ? std::make_pair(std::min(window->first, start), std::max(window->second, end))
                : std::make_pair(start, end);
        }
        if (!window && error)
            *error = QStringLiteral("step %1 is on no rank with a timeline").arg(*selection.step);
        return window;
    }
    const qint64 zero = model.extent().first;
    if (selection.rangeUs) {
        const auto range = std::make_pair(
            zero + selection.rangeUs->first * 1000, zero + selection.rangeUs->second * 1000);
        // A window beside the trace draws empty lanes: said, as an empty range is.
        if (range.second <= model.extent().first || range.first >= model.extent().second) {
            if (error)
                *error = QStringLiteral("the range %1:%2 µs lies outside the trace, which spans "
                                        "0:%3 µs")
                             .arg(selection.rangeUs->first)
                             .arg(selection.rangeUs->second)
                             .arg((model.extent().second - zero + 999) / 1000);
            return std::nullopt;
        }
        return range;
    }
    return model.extent();
}

PaintFunction viewPainter(std::shared_ptr<const model::Session> session,
    std::shared_ptr<const analysis::SessionAnalysis> analysed, ExportView view,
    const TimeSelection &selection, const analysis::RunConfig &config, const QString &title,
    std::shared_ptr<const timeline::TimelineModel> timelineModel)
{
    const bool hasConfig = !config.source.empty();
    if (!analysed && needsAnalysis(view))
        analysed = std::make_shared<const analysis::SessionAnalysis>(
            analysis::analyzeSession(*session, config));
    if (!timelineModel && needsTimeline(view))
        timelineModel = timeline::TimelineModel::build(session, true, analysed);
    // A panel's title says what it shows of the run (panelScope), once it is built.
    QString scope;
    PaintFunction body;
    switch (view) {
    case ExportView::Timeline: {
        QString ignored;
        auto window = resolveSelection(*timelineModel, *analysed, selection, &ignored)
                          .value_or(timelineModel->extent());
        QString shown = title;
        if (selection.step)
            shown += QStringLiteral(", step %1").arg(*selection.step);
        else if (selection.rangeUs)
            shown += QStringLiteral(", %1 µs – %2 µs")
                         .arg(selection.rangeUs->first)
                         .arg(selection.rangeUs->second);
        return withTitle(shown, timelineBody(std::move(timelineModel), window));
    }
    case ExportView::Steps:
        body = panelBody<StepsPanel>(
            std::move(session), std::move(analysed), config, hasConfig, &scope);
        break;
    case ExportView::Memory:
        body = panelBody<MemoryPanel>(std::move(session), std::move(analysed), config, hasConfig,
            &scope, timelineModel.get());
        break;
    case ExportView::Communication:
        body = panelBody<CommunicationPanel>(
            std::move(session), std::move(analysed), config, hasConfig, &scope);
        break;
    case ExportView::Kernels: // the chosen step's kernels, as the panel's Step chooser shows
        body = panelBody<KernelsPanel>(std::move(session), std::move(analysed), config, hasConfig,
            &scope, nullptr, [step = selection.step](KernelsPanel &panel) {
                if (step)
                    panel.setStep(*step);
            });
        break;
    case ExportView::Cluster:
        body = panelBody<ClusterPanel>(
            std::move(session), std::move(analysed), config, hasConfig, &scope);
        break;
    case ExportView::Training:
        body = panelBody<TrainingPanel>(
            std::move(session), std::move(analysed), config, hasConfig, &scope);
        break;
    }
    return withTitle(title + scope, std::move(body));
}

QStringList exportViews(std::shared_ptr<const model::Session> session,
    const std::vector<ExportView> &views, const TimeSelection &selection,
    const analysis::RunConfig &config, const ImageRequest &base, const QString &outDir,
    const QString &profileName, QString *error,
    std::shared_ptr<const analysis::SessionAnalysis> analysed)
{
    QStringList written;
    if (!QDir().mkpath(outDir)) {
        if (error)
            *error = QStringLiteral("%1: cannot create the folder").arg(outDir);
        return written;
    }
    // One analysis for every view of this export (the breakdown pass runs once per trace).
    if (!analysed && (selection.step || std::any_of(views.begin(), views.end(), needsAnalysis)))
        analysed = std::make_shared<const analysis::SessionAnalysis>(
            analysis::analyzeSession(*session, config));
    if (analysed && !checkSelection(*analysed, selection, error))
        return written;
    // And one timeline model: the timeline view draws it, the Memory view reads its ruler.
    std::shared_ptr<const timeline::TimelineModel> timelineModel;
    if (std::any_of(views.begin(), views.end(), needsTimeline))
        timelineModel = timeline::TimelineModel::build(session, true, analysed);
    const bool drawsTimeline =
        std::find(views.begin(), views.end(), ExportView::Timeline) != views.end();
    if (drawsTimeline && !resolveSelection(*timelineModel, *analysed, selection, error))
        return written;
    QStringList skipped;
    for (ExportView view : views) {
        // Nothing on a time axis (a memory timeline alone): no empty ruler, the reason instead.
        if (view == ExportView::Timeline && !timelineModel->hasTimeline()) {
            skipped << QStringLiteral("%1 holds no trace events and no steps, so it has no "
                                      "timeline picture%2")
                           .arg(profileName,
                               session->memoryOnly()
                                   ? QStringLiteral(" (memory records only: --view memory)")
                                   : QString());
            continue;
        }
        // The timeline adds the step or range, a panel the rank and step it shows.
        const QString title = profileName + QStringLiteral(" — ") + exportViewName(view);
        ImageRequest request = base;
        request.path = QDir(outDir).filePath(
            defaultFileName(profileName, exportViewName(view), selection.step, base.format));
        if (!writeImage(
                viewPainter(session, analysed, view, selection, config, title, timelineModel),
                request, error))
            return written;
        written << request.path;
    }
    if (error && !skipped.isEmpty())
        *error = skipped.join(QStringLiteral("; "));
    return written;
}

} // namespace stepscope::ui

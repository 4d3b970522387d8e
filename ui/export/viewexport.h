// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "analysis/kpis.h"
#include "imageexport.h"
#include "model/session.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <utility>

class QWidget;

namespace stepscope::analysis {
struct SessionAnalysis; // analysissummary.h
}

namespace stepscope::ui::timeline {
class TimelineModel; // timeline/timelinemodel.h
}

namespace stepscope::ui {

/// The views `stepscope export` and File › Export View can write.
enum class ExportView { Timeline, Steps, Memory, Communication, Kernels, Cluster, Training };
QString exportViewName(ExportView view);
std::optional<ExportView> exportViewFromName(const QString &name);

/// `body` under a title line (bold, elided in the middle), as every exported picture has one.
PaintFunction withTitle(const QString &title, PaintFunction body);

/// What a panel shows of the run, for its picture's title (DESIGN.md: "profile, rank, step or
/// range"): ", rank 3" for the panels that show one rank (Steps, Memory, Kernels; Kernels adds
/// its chosen step); empty for the others, and while a panel shows a message.
QString panelScope(const QWidget &panel);

/// Which part of the timeline to show: a profiler step by its number (the Steps panel's rows),
/// a range in µs from the ruler's zero (the start of the trace), or everything.
struct TimeSelection
{
    std::optional<qint64> step;
    std::optional<std::pair<qint64, qint64>> rangeUs;
};

/// False (and `error` set) when the step is no row of `analysed` on any rank, or the range is
/// empty: what `stepscope export` refuses before it draws anything.
bool checkSelection(
    const analysis::SessionAnalysis &analysed, const TimeSelection &selection, QString *error);

/// The timeline's [start, end) in `model`'s session-relative ns, as the window shows it. A step
/// spans its Steps rows on every rank that has a timeline, each at its rank's offset (what a
/// click on the row zooms to); a range counts from the ruler's zero; without either, the whole
/// timeline. Nullopt (and `error` set) when the step has no row on a rank with a timeline.
std::optional<std::pair<qint64, qint64>> resolveSelection(const timeline::TimelineModel &model,
    const analysis::SessionAnalysis &analysed, const TimeSelection &selection, QString *error);

/// A paint function for one view of a session, under the title line `title` ("profile —
/// view") with what the view shows added: the timeline its step or range, a panel its rank
/// (panelScope). The timeline paints through the same geometry builder as the widget.
/// The timeline, Steps and Cluster views show `analysed` (analysed here when null). The
/// timeline view draws `timelineModel` and the Memory view counts its times from its ruler (built
/// here when null).
PaintFunction viewPainter(std::shared_ptr<const model::Session> session,
    std::shared_ptr<const analysis::SessionAnalysis> analysed, ExportView view,
    const TimeSelection &selection, const analysis::RunConfig &config, const QString &title,
    std::shared_ptr<const timeline::TimelineModel> timelineModel = nullptr);

/// Writes each view into `outDir` with default names, from one analysis of the session
/// (`analysed`, or one made here with `config`). Returns the written paths; on error returns
/// what was written so far and sets `error`. A session with nothing on a time axis (no trace
/// events, no steps) gets no timeline picture: the other views are written and `error` says
/// why the timeline is not.
QStringList exportViews(std::shared_ptr<const model::Session> session,
    const std::vector<ExportView> &views, const TimeSelection &selection,
    const analysis::RunConfig &config, const ImageRequest &base, const QString &outDir,
    const QString &profileName, QString *error,
    std::shared_ptr<const analysis::SessionAnalysis> analysed = nullptr);

} // namespace stepscope::ui

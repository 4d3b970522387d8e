// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
//
// File › Export View and Copy View Image: what the main window paints into a file or the
// clipboard (the timeline through its geometry builder, so the file matches the screen).
#include "export/imageexport.h"
#include "export/viewexport.h"
#include "mainwindow.h"
#include "text.h"
#include "timeline/geometrybuilder.h"
#include "timeline/timelineview.h"
#include "windowsettings.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStatusBar>

#include <algorithm>
#include <optional>

namespace stepscope::ui {

namespace {

/// The step under the centre of the timeline's view (rank 0's steps), if any. Step ids can
/// be negative (a profiler table's -1), so none is nullopt, not -1.
std::optional<qint64> stepUnderCentre(
    const timeline::TimelineModel &model, const timeline::ViewState &view)
{
    const qint64 middle = (view.axis.startNs() + view.axis.endNs()) / 2;
    for (const auto &s : model.steps(0)) {
        if (s.startNs <= middle && middle < s.endNs)
            return s.number;
    }
    return std::nullopt;
}

} // namespace

QString MainWindow::exportTitle(const QString &what) const
{
    QString title = QFileInfo(m_profile.path).fileName();
    if (what == QStringLiteral("timeline") && m_profile.timeline) {
        title += tr(" — timeline");
        const timeline::ViewState &view = m_timeline->viewState();
        if (const auto step = stepUnderCentre(*m_profile.timeline, view))
            title += tr(", step %1").arg(*step);
        // The range shown, on the ruler's clock.
        title += tr(", %1 – %2")
                     .arg(durText(view.axis.startNs() - view.rulerOriginNs),
                         durText(view.axis.endNs() - view.rulerOriginNs));
        return title;
    }
    if (what == QStringLiteral("compare"))
        return title + tr(" — comparison");
    for (QDockWidget *dock : findChildren<QDockWidget *>()) {
        if (dock->objectName() == what)
            return title + QStringLiteral(" — ") + dock->windowTitle()
                + (dock->widget() ? panelScope(*dock->widget()) : QString());
    }
    return title;
}

/// What File › Export View writes: the timeline (through its geometry builder, so the file
/// matches the screen), the compare view, a panel, or the whole window; each but the window
/// under its title line.
PaintFunction MainWindow::viewPaintFunction(const QString &what) const
{
    PaintFunction body;
    if (what == QStringLiteral("timeline") && m_profile.timeline) {
        const auto model = m_profile.timeline;
        const timeline::ViewState state = m_timeline->viewState();
        const QFont font = m_timeline->font();
        body = [model, state, font](QPainter &p, const QSize &size) {
            timeline::ViewState view = state;
            const timeline::TimelineMetrics metrics;
            view.axis.setWidth(std::max(1, size.width() - metrics.headerWidth));
            view.axis.fit(state.axis.startNs(), state.axis.endNs());
            timeline::paintTimeline(p, *model, view, size, metrics, font);
        };
    } else if (what == QStringLiteral("compare") && m_compare) {
        body = widgetPainter(m_compare);
    } else {
        for (QDockWidget *dock : findChildren<QDockWidget *>()) {
            if (dock->objectName() == what && dock->widget())
                body = widgetPainter(dock->widget());
        }
    }
    return body ? withTitle(exportTitle(what), std::move(body))
                : widgetPainter(const_cast<MainWindow *>(this));
}

void MainWindow::exportView()
{
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Export View"));
    auto *form = new QFormLayout(&dialog);
    auto *what = new QComboBox(&dialog);
    if (m_compare && m_centre->currentWidget() == m_compare)
        what->addItem(tr("Comparison"), QStringLiteral("compare"));
    if (m_profile.timeline)
        what->addItem(tr("Timeline"), QStringLiteral("timeline"));
    for (QDockWidget *dock : findChildren<QDockWidget *>()) {
        if (dock->isVisible() && dock->widget())
            what->addItem(dock->windowTitle(), dock->objectName());
    }
    what->addItem(tr("Whole window"), QStringLiteral("window"));
    const settings::ExportDefaults defaults = settings::exportDefaults();
    auto *scale = new QComboBox(&dialog);
    scale->addItem(QStringLiteral("1×"), 1.0);
    scale->addItem(QStringLiteral("2×"), 2.0);
    scale->setCurrentIndex(defaults.scale >= 1.5 ? 1 : 0);
    auto *width = new QSpinBox(&dialog);
    auto *height = new QSpinBox(&dialog);
    width->setRange(64, 16384);
    height->setRange(64, 16384);
    const QSize current = defaults.size.isValid() ? defaults.size : m_centre->size();
    width->setValue(current.width());
    height->setValue(current.height());
    auto *size = new QHBoxLayout;
    size->addWidget(width);
    size->addWidget(new QLabel(QStringLiteral("×"), &dialog));
    size->addWidget(height);
    form->addRow(tr("View:"), what);
    form->addRow(tr("Scale:"), scale);
    form->addRow(tr("Size (px):"), size);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return;

    const QString key = what->currentData().toString();
    // Name the file after the step under the centre of the view, when there is one.
    const std::optional<qint64> step = m_profile.timeline && key == QStringLiteral("timeline")
        ? stepUnderCentre(*m_profile.timeline, m_timeline->viewState())
        : std::nullopt;
    const QString profile = QFileInfo(m_profile.path).fileName();
    const bool svgDefault = defaults.format == QLatin1String("svg");
    const QString name = QDir(settings::lastFolder(QStringLiteral("export")))
                             .filePath(defaultFileName(profile, key, step,
                                 svgDefault ? ImageFormat::Svg : ImageFormat::Png));
    const QString png = tr("PNG image (*.png)");
    const QString svg = tr("SVG image (*.svg)");
    QString selectedFilter = svgDefault ? svg : png;
    const QString file = QFileDialog::getSaveFileName(this, tr("Export View"), name,
        svgDefault ? svg + QStringLiteral(";;") + png : png + QStringLiteral(";;") + svg,
        &selectedFilter);
    if (file.isEmpty())
        return;
    settings::setLastFolder(QStringLiteral("export"), file);
    ImageRequest request;
    request.path = file;
    request.size = QSize(width->value(), height->value());
    request.scale = scale->currentData().toDouble();
    request.format = file.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive)
            || selectedFilter.contains(QStringLiteral("svg"))
        ? ImageFormat::Svg
        : ImageFormat::Png;
    settings::ExportDefaults chosen;
    chosen.scale = request.scale;
    chosen.format =
        request.format == ImageFormat::Svg ? QStringLiteral("svg") : QStringLiteral("png");
    chosen.size = request.size == m_centre->size() ? QSize() : request.size;
    settings::setExportDefaults(chosen);
    QString error;
    if (!writeImage(viewPaintFunction(key), request, &error))
        QMessageBox::warning(this, tr("Export View"), error);
    else
        statusBar()->showMessage(tr("Wrote %1").arg(file), 5000);
}

void MainWindow::copyViewImage()
{
    const QString key = m_compare && m_centre->currentWidget() == m_compare
        ? QStringLiteral("compare")
        : QStringLiteral("timeline");
    QString why;
    if (!usableFontAvailable(&why)) {
        QMessageBox::warning(this, tr("Copy Image"), why);
        return;
    }
    QApplication::clipboard()->setImage(
        renderImage(viewPaintFunction(key), m_centre->size(), devicePixelRatioF()));
}

} // namespace stepscope::ui

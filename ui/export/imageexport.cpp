// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "imageexport.h"

#include <QApplication>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFontInfo>
#include <QFontMetrics>
#include <QLayout>
#include <QPainter>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <QWidget>

namespace stepscope::ui {

bool usableFontAvailable(QString *why)
{
    if (QFontDatabase::families().isEmpty()) {
        if (why)
            *why = QStringLiteral("no font is installed; install a font package such as "
                                  "fonts-dejavu-core so text does not render as boxes");
        return false;
    }
    const QFontMetrics metrics(QGuiApplication::font());
    for (QChar c : QStringLiteral("Step0123456789msGiB%")) {
        if (!metrics.inFont(c)) {
            if (why)
                *why = QStringLiteral("the default font has no glyph for '%1'; install a font "
                                      "package such as fonts-dejavu-core")
                           .arg(c);
            return false;
        }
    }
    return true;
}

QImage renderImage(const PaintFunction &paint, const QSize &size, qreal scale)
{
    QImage image(size * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    paint(painter, size);
    painter.end();
    return image;
}

namespace {

/// QSvgGenerator writes Qt's family names ("Sans Serif", a fontconfig alias), which no
/// browser knows: text fell back to a serif font. Each becomes the font it resolves to here,
/// then the CSS generic family.
bool useCssFontFamilies(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    QString svg = QString::fromUtf8(file.readAll());
    file.close();
    static const QRegularExpression family(QStringLiteral("font-family=\"([^\"]*)\""));
    QString out;
    qsizetype at = 0;
    for (auto it = family.globalMatch(svg); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const QString resolved = QFontInfo(QFont(m.captured(1))).family();
        out += QStringView(svg).mid(at, m.capturedStart() - at);
        out += QStringLiteral("font-family=\"'%1', sans-serif\"").arg(resolved.toHtmlEscaped());
        at = m.capturedEnd();
    }
    out += QStringView(svg).mid(at);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    return file.write(out.toUtf8()) >= 0;
}

} // namespace

bool writeImage(const PaintFunction &paint, const ImageRequest &request, QString *error)
{
    QString why;
    if (!usableFontAvailable(&why)) {
        if (error)
            *error = QStringLiteral("%1: not written: %2").arg(request.path, why);
        return false;
    }
    if (request.size.isEmpty() || request.scale <= 0) {
        if (error)
            *error = QStringLiteral("%1: not written: empty size").arg(request.path);
        return false;
    }
    if (request.format == ImageFormat::Svg) {
        QSvgGenerator svg;
        svg.setFileName(request.path);
        svg.setSize(request.size);
        svg.setViewBox(QRect(QPoint(0, 0), request.size));
        svg.setTitle(QFileInfo(request.path).completeBaseName());
        QPainter painter;
        if (!painter.begin(&svg)) {
            if (error)
                *error = QStringLiteral("%1: cannot write the SVG file").arg(request.path);
            return false;
        }
        painter.fillRect(QRect(QPoint(0, 0), request.size), Qt::white);
        paint(painter, request.size);
        painter.end();
        if (!useCssFontFamilies(request.path)) {
            if (error)
                *error = QStringLiteral("%1: cannot write the SVG file").arg(request.path);
            return false;
        }
        return QFileInfo::exists(request.path);
    }
    const QImage image = renderImage(paint, request.size, request.scale);
    if (!image.save(request.path, "PNG")) {
        if (error)
            *error = QStringLiteral("%1: cannot write the PNG file").arg(request.path);
        return false;
    }
    return true;
}

PaintFunction widgetPainter(QWidget *widget)
{
    return [widget](QPainter &painter, const QSize &size) {
        const QSize old = widget->size();
        widget->resize(size);
        widget->ensurePolished();
        // Layouts settle on resize only after events are processed. Qt Charts lays out a chart
        // (its plot area, axes, legend) on a posted LayoutRequest: without an event loop since
        // the widget was shown (`stepscope export`), a chart kept its first, tiny layout.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        if (auto *layout = widget->layout())
            layout->activate();
        widget->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
        widget->resize(old);
    };
}

QString defaultFileName(
    const QString &profileName, const QString &view, std::optional<qint64> step, ImageFormat format)
{
    QString base = profileName.isEmpty() ? QStringLiteral("stepscope") : profileName;
    base += QLatin1Char('_') + view;
    if (step)
        base += QStringLiteral("_step%1").arg(*step);
    base.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("_"));
    return base + (format == ImageFormat::Svg ? QStringLiteral(".svg") : QStringLiteral(".png"));
}

} // namespace stepscope::ui

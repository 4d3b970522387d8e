// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <QImage>
#include <QSize>
#include <QString>

#include <functional>
#include <optional>

class QPainter;
class QWidget;

namespace stepscope::ui {

enum class ImageFormat { Png, Svg };

/// What to write: logical size in pixels, device pixel ratio (1 or 2), format, file.
struct ImageRequest
{
    QSize size {1600, 900};
    qreal scale = 1.0;
    ImageFormat format = ImageFormat::Png;
    QString path;
};

/// Paints one picture into a painter whose logical size is `size` (the device pixel ratio
/// is already applied). Views pass the same geometry builder they paint the screen with.
using PaintFunction = std::function<void(QPainter &painter, const QSize &size)>;

/// True when a font with real glyphs is available; otherwise `why` says what to install.
/// Text in exported pictures must render: export refuses to write boxes.
bool usableFontAvailable(QString *why = nullptr);

/// Renders `paint` into an image of size × scale device pixels with that pixel ratio.
QImage renderImage(const PaintFunction &paint, const QSize &size, qreal scale);

/// Writes `paint` as PNG or SVG. Returns false and sets `error` (naming the file and the
/// reason) on failure, including when no usable font is available.
bool writeImage(const PaintFunction &paint, const ImageRequest &request, QString *error);

/// A PaintFunction that renders a widget (and its children) resized to the requested size;
/// for views without a geometry builder of their own (Qt Charts panels, tables).
PaintFunction widgetPainter(QWidget *widget);

/// "<profile>_<view>[_step<N>].<ext>" with characters unsafe in file names replaced; any
/// step id, negative ones too (a profiler table's step -1).
QString defaultFileName(const QString &profileName, const QString &view, std::optional<qint64> step,
    ImageFormat format);

} // namespace stepscope::ui

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "ui/export/imageexport.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QStringList>
#include <QTemporaryDir>
#include <QXmlStreamReader>

using namespace stepscope::ui;

namespace {
void paintSample(QPainter &p, const QSize &size)
{
    p.fillRect(QRect(10, 10, size.width() / 2, size.height() / 2), QColor(0x00, 0x72, 0xB2));
    p.setPen(Qt::black);
    p.drawText(QRect(0, 0, size.width(), 30), Qt::AlignCenter, QStringLiteral("step 5 · 148 ms"));
}

bool isBlank(const QImage &img)
{
    const QRgb first = img.pixel(0, 0);
    for (int y = 0; y < img.height(); y += 3)
        for (int x = 0; x < img.width(); x += 3)
            if (img.pixel(x, y) != first)
                return false;
    return true;
}
} // namespace

TEST(ImageExport, PngHasTheRequestedDevicePixels)
{
    QTemporaryDir dir;
    ImageRequest r;
    r.size = QSize(400, 200);
    r.scale = 2;
    r.path = dir.filePath(QStringLiteral("x.png"));
    QString error;
    ASSERT_TRUE(writeImage(paintSample, r, &error)) << error.toStdString();
    QImage img(r.path);
    EXPECT_EQ(img.size(), QSize(800, 400));
    EXPECT_FALSE(isBlank(img));
}

TEST(ImageExport, SvgIsWellFormedXml)
{
    QTemporaryDir dir;
    ImageRequest r;
    r.size = QSize(300, 150);
    r.format = ImageFormat::Svg;
    r.path = dir.filePath(QStringLiteral("x.svg"));
    QString error;
    ASSERT_TRUE(writeImage(paintSample, r, &error)) << error.toStdString();
    QFile f(r.path);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&f);
    bool sawSvg = false;
    bool sawText = false;
    QStringList families; // a browser knows only CSS names: each ends with the generic one
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == QLatin1String("svg"))
            sawSvg = true;
        if (xml.isStartElement() && xml.attributes().hasAttribute(QStringLiteral("font-family")))
            families << xml.attributes().value(QStringLiteral("font-family")).toString();
        if (xml.isCharacters() && xml.text().contains(QStringLiteral("148 ms")))
            sawText = true;
    }
    EXPECT_FALSE(xml.hasError()) << xml.errorString().toStdString();
    EXPECT_TRUE(sawSvg);
    EXPECT_TRUE(sawText);
    ASSERT_FALSE(families.isEmpty());
    for (const QString &family : families) {
        EXPECT_TRUE(family.endsWith(QStringLiteral(", sans-serif"))) << family.toStdString();
        EXPECT_FALSE(family.contains(QStringLiteral("Sans Serif"))) << family.toStdString();
    }
}

TEST(ImageExport, UnwritablePathNamesTheFile)
{
    ImageRequest r;
    r.path = QStringLiteral("/nonexistent-dir/y.png");
    QString error;
    EXPECT_FALSE(writeImage(paintSample, r, &error));
    EXPECT_TRUE(error.contains(QStringLiteral("/nonexistent-dir/y.png")));
}

TEST(ImageExport, WidgetPainterRendersAtTheRequestedSize)
{
    QLabel label(QStringLiteral("Memory peak 6.17 GiB"));
    const QImage img = renderImage(widgetPainter(&label), QSize(320, 40), 1);
    EXPECT_EQ(img.size(), QSize(320, 40));
    EXPECT_FALSE(isBlank(img));
}

TEST(ImageExport, DefaultNamesCarryProfileViewAndStep)
{
    EXPECT_EQ(defaultFileName(QStringLiteral("resnet50 workers/0"), QStringLiteral("timeline"), 7,
                  ImageFormat::Png),
        QStringLiteral("resnet50_workers_0_timeline_step7.png"));
    EXPECT_EQ(defaultFileName(QString(), QStringLiteral("memory"), std::nullopt, ImageFormat::Svg),
        QStringLiteral("stepscope_memory.svg"));
    // A profiler table's step -1 (mstt-advisor-fragments) is a step like any other.
    EXPECT_EQ(
        defaultFileName(QStringLiteral("frag"), QStringLiteral("timeline"), -1, ImageFormat::Png),
        QStringLiteral("frag_timeline_step-1.png"));
}

TEST(ImageExport, FontsAreUsable)
{
    QString why;
    EXPECT_TRUE(usableFontAvailable(&why)) << why.toStdString();
}

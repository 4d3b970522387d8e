// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Without a font package every glyph renders as a box and nothing else fails: catch it here.

#include <gtest/gtest.h>

#include <QApplication>
#include <QFontDatabase>
#include <QFontMetrics>
#include <QImage>
#include <QPainter>

TEST(Fonts, TextRendersAsGlyphsNotBoxes)
{
    EXPECT_FALSE(QFontDatabase::families().isEmpty()) << "no font installed (fonts-dejavu-core)";
    const QFont font = QApplication::font();
    const QFontMetrics metrics(font);
    // A real font has the Latin letters; with the fallback box font it does not.
    for (QChar c : QStringLiteral("StepScope 0123456789 µs"))
        EXPECT_TRUE(metrics.inFont(c)) << "missing glyph " << c.unicode();
    // Different letters draw different pixels (boxes would all look the same).
    auto render = [&](const QString &s) {
        QImage img(64, 32, QImage::Format_ARGB32);
        img.fill(Qt::white);
        QPainter p(&img);
        p.setFont(font);
        p.setPen(Qt::black);
        p.drawText(img.rect(), Qt::AlignCenter, s);
        return img;
    };
    EXPECT_NE(render(QStringLiteral("i")), render(QStringLiteral("W")));
}

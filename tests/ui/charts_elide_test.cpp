// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Labels elided in the middle with the full text in the tooltip (ui/charts/elide.h,
// DESIGN.md "Numbers and text": "Names are elided in the middle when long").

#include "ui/charts/elide.h"

#include <gtest/gtest.h>

#include <QFontMetrics>
#include <QSet>

using namespace stepscope::ui;

namespace {

const QChar Ellipsis(0x2026);

QFontMetrics metrics()
{
    return QFontMetrics(QFont());
}

} // namespace

TEST(ElideMiddle, KeepsTheStartAndTheEndAndFits)
{
    const QFontMetrics fm = metrics();
    const QString name = QStringLiteral("Optimizer state (inferred from operator_memory.csv)");
    EXPECT_EQ(elideMiddle(name, fm, fm.horizontalAdvance(name)), name); // fits: unchanged
    for (int width : {40, 80, 120, 200}) {
        const QString e = elideMiddle(name, fm, width);
        EXPECT_LE(fm.horizontalAdvance(e), width) << width;
        const int cut = static_cast<int>(e.indexOf(Ellipsis));
        ASSERT_GT(cut, 0) << e.toStdString();
        const QString head = e.left(cut);
        const QString tail = e.mid(cut + 1);
        EXPECT_TRUE(name.startsWith(head)) << e.toStdString();
        EXPECT_TRUE(name.endsWith(tail)) << e.toStdString();
        // Middle, not end: both sides keep about as many characters.
        EXPECT_LE(std::abs(head.size() - tail.size()), 1) << e.toStdString();
        EXPECT_FALSE(tail.isEmpty());
    }
    // No room: at most the ellipsis, never wider than asked.
    EXPECT_LE(fm.horizontalAdvance(elideMiddle(name, fm, 3)), 3);
    EXPECT_EQ(elideMiddle(name, fm, fm.horizontalAdvance(Ellipsis)), QString(Ellipsis));
}

TEST(ElideMiddle, DistinctLabelsStayDistinct)
{
    // The report's "resnet50_n… · step 10" for both runs: the labels must tell them apart.
    const QFontMetrics fm = metrics();
    const QStringList labels {QStringLiteral("resnet50_num_workers_0 · step 10"),
        QStringLiteral("resnet50_num_workers_4 · step 10"), QStringLiteral("short"),
        QStringLiteral("short")};
    const int width = fm.horizontalAdvance(QStringLiteral("resnet50_nu… step 10"));
    const QStringList out = elideMiddleDistinct(labels, fm, width);
    ASSERT_EQ(out.size(), labels.size());
    EXPECT_EQ(QSet<QString>(out.begin(), out.end()).size(), out.size());
    EXPECT_TRUE(out[0].startsWith(QStringLiteral("resnet50_n")));
    EXPECT_TRUE(out[1].endsWith(QStringLiteral("step 10")));
    EXPECT_EQ(out[2], QStringLiteral("short"));
    // Equal inputs differ only by invisible characters.
    EXPECT_EQ(QString(out[3]).remove(QChar(0x200B)), QStringLiteral("short"));
    EXPECT_LE(fm.horizontalAdvance(out[0]), width + 4 * fm.averageCharWidth());
}

TEST(ElidedLabel, ElidesToItsWidthWithTheFullTextInTheTooltip)
{
    ElidedLabel label;
    const QString full =
        QStringLiteral("lightning_logs/version_1/metrics.csv, run 2 (from line 843)");
    label.setFullText(full);
    label.show();
    label.resize(90, 20);
    EXPECT_EQ(label.toolTip(), full);
    EXPECT_EQ(label.fullText(), full);
    EXPECT_NE(label.text(), full);
    EXPECT_TRUE(label.text().contains(Ellipsis));
    EXPECT_TRUE(label.text().startsWith(QStringLiteral("light")));
    EXPECT_LE(label.fontMetrics().horizontalAdvance(label.text()), 90);
    label.resize(label.fontMetrics().horizontalAdvance(full) + 10, 20);
    EXPECT_EQ(label.text(), full);
    EXPECT_GE(label.sizeHint().width(), label.fontMetrics().horizontalAdvance(full));
}

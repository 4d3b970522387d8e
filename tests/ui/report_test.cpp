// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "ui/report/report.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>

using namespace stepscope::ui;

namespace {
Report sampleReport()
{
    Report r;
    r.title = QStringLiteral("before → after");
    ReportSection s;
    s.title = QStringLiteral("KPIs");
    s.paragraphs << QStringLiteral("Step time fell <a lot>.");
    ReportTable t;
    t.header = {QStringLiteral("metric"), QStringLiteral("before"), QStringLiteral("after")};
    t.rows.push_back(
        {QStringLiteral("step time"), QStringLiteral("160 ms"), QStringLiteral("120 ms")});
    t.tones.push_back({CellTone::Plain, CellTone::Plain, CellTone::Better});
    s.tables.push_back(t);
    QImage img(40, 20, QImage::Format_ARGB32);
    img.fill(Qt::blue);
    s.images.push_back({QStringLiteral("steps"), QStringLiteral("steps.png"), img});
    r.sections.push_back(s);
    return r;
}
} // namespace

TEST(Report, HtmlIsSelfContained)
{
    const QString html = reportHtml(sampleReport());
    // Every src/href is an embedded data: URI; nothing points outside the file.
    const QRegularExpression ref(QStringLiteral("(?:src|href)\\s*=\\s*\"([^\"]*)\""));
    int images = 0;
    for (auto it = ref.globalMatch(html); it.hasNext();) {
        const QString target = it.next().captured(1);
        EXPECT_TRUE(target.startsWith(QStringLiteral("data:image/png;base64,")))
            << target.left(60).toStdString();
        ++images;
    }
    EXPECT_EQ(images, 1);
    EXPECT_FALSE(html.contains(QStringLiteral("<a lot>"))); // escaped
    EXPECT_TRUE(html.contains(QStringLiteral("class=\"better\">120 ms")));
}

TEST(Report, WritesHtmlMarkdownAndPngs)
{
    QTemporaryDir dir;
    QString error;
    ASSERT_TRUE(writeReport(sampleReport(), dir.path(), &error)) << error.toStdString();
    EXPECT_TRUE(QFile::exists(dir.filePath(QStringLiteral("report.html"))));
    EXPECT_TRUE(QFile::exists(dir.filePath(QStringLiteral("steps.png"))));
    QFile md(dir.filePath(QStringLiteral("report.md")));
    ASSERT_TRUE(md.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(md.readAll());
    EXPECT_TRUE(text.contains(QStringLiteral("![steps](steps.png)")));
    EXPECT_TRUE(text.contains(QStringLiteral("| step time | 160 ms | 120 ms |")));
}

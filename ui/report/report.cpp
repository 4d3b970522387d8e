// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "report.h"

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QSaveFile>

namespace stepscope::ui {

namespace {

QString escape(const QString &s)
{
    return s.toHtmlEscaped();
}

QString toneClass(const ReportTable &t, std::size_t row, int col)
{
    // Short cells (numbers with their unit: "+98.8 µs") never wrap; long ones (kernel names,
    // paths, evidence) wrap, so that a wide table still fits the page.
    const bool shortCell = t.rows[row][col].size() <= 16;
    QString tone;
    if (row < t.tones.size() && col < static_cast<int>(t.tones[row].size())) {
        switch (t.tones[row][static_cast<std::size_t>(col)]) {
        case CellTone::Better:
            tone = QStringLiteral("better");
            break;
        case CellTone::Worse:
            tone = QStringLiteral("worse");
            break;
        case CellTone::Plain:
            break;
        }
    }
    if (shortCell)
        tone += tone.isEmpty() ? QStringLiteral("n") : QStringLiteral(" n");
    return tone.isEmpty() ? QString() : QStringLiteral(" class=\"%1\"").arg(tone);
}

/// Whether a column holds words (kernel names, paths, evidence): left-aligned like the
/// first column, where numbers stay right-aligned. A cell is a number when it starts like
/// one ("12", "+2.12 ms", "−13.8 %", ".5"); "—" and empty cells do not decide.
std::vector<bool> textColumns(const ReportTable &t)
{
    std::vector<bool> text(static_cast<std::size_t>(t.header.size()), false);
    for (const QStringList &row : t.rows) {
        for (int c = 0; c < row.size() && c < t.header.size(); ++c) {
            const QString &cell = row[c];
            if (cell.isEmpty() || cell == QStringLiteral("—"))
                continue;
            const QChar first = cell.front();
            const bool number = first.isDigit() || first == QLatin1Char('+')
                || first == QLatin1Char('-') || first == QChar(0x2212) || first == QLatin1Char('.');
            if (!number)
                text[static_cast<std::size_t>(c)] = true;
        }
    }
    return text;
}

QString pngDataUri(const QImage &image)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return QStringLiteral("data:image/png;base64,") + QString::fromLatin1(bytes.toBase64());
}

QString markdownCell(QString s)
{
    return s.replace(QLatin1Char('|'), QStringLiteral("\\|"))
        .replace(QLatin1Char('\n'), QLatin1Char(' '));
}

} // namespace

QString reportHtml(const Report &report)
{
    QString html;
    html += QStringLiteral("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                           "<title>%1</title>\n<style>\n"
                           // Fits a 1200 px window and an A4 page: wide tables wrap their
                           // cells (kernel names break anywhere), pictures scale down.
                           "*{box-sizing:border-box}\n"
                           "body{font-family:'DejaVu Sans',Arial,sans-serif;margin:2em auto;"
                           "padding:0 1em;max-width:1200px;color:#222}\n"
                           "h1{font-size:1.6em}h2{font-size:1.25em;border-bottom:1px solid #ccc;"
                           "padding-bottom:.2em;margin-top:1.6em}\n"
                           "table{border-collapse:collapse;margin:.6em 0;font-size:.9em;"
                           "max-width:100%}\n"
                           "th,td{border:1px solid #ccc;padding:.25em .6em;text-align:right;"
                           "overflow-wrap:anywhere}\n"
                           "th:first-child,td:first-child{text-align:left}\n"
                           // Headers are single words ("format", "steps"): whole, never
                           // "forma|t" (anywhere-wrapping lets the table squeeze them).
                           "th{background:#f0f0f0;overflow-wrap:normal}"
                           ".better{color:#0a7a2f;font-weight:bold}"
                           ".worse{color:#b00020;font-weight:bold}.n{white-space:nowrap}"
                           "th.t,td.t{text-align:left}\n"
                           "figure{margin:1em 0}img{display:block;max-width:100%;height:auto;"
                           "border:1px solid #ddd}"
                           "figcaption{font-size:.85em;color:#555}\n"
                           "@page{size:A4;margin:12mm}\n"
                           "@media print{body{max-width:none;margin:0;padding:0;font-size:9pt}"
                           "figure,tr{break-inside:avoid}h2,h3{break-after:avoid}}\n"
                           "</style></head><body>\n")
                .arg(escape(report.title));
    html += QStringLiteral("<h1>%1</h1>\n").arg(escape(report.title));
    for (const ReportSection &s : report.sections) {
        html += QStringLiteral("<h2>%1</h2>\n").arg(escape(s.title));
        for (const QString &p : s.paragraphs)
            html += QStringLiteral("<p>%1</p>\n").arg(escape(p));
        for (const ReportTable &t : s.tables) {
            if (!t.title.isEmpty())
                html += QStringLiteral("<h3>%1</h3>\n").arg(escape(t.title));
            const std::vector<bool> text = textColumns(t);
            const auto isText = [&text](int c) {
                return c > 0 && static_cast<std::size_t>(c) < text.size()
                    && text[static_cast<std::size_t>(c)];
            };
            html += QStringLiteral("<table><thead><tr>");
            for (int c = 0; c < t.header.size(); ++c)
                html += QStringLiteral("<th%1>%2</th>")
                            .arg(isText(c) ? QStringLiteral(" class=\"t\"") : QString(),
                                escape(t.header[c]));
            html += QStringLiteral("</tr></thead><tbody>\n");
            for (std::size_t r = 0; r < t.rows.size(); ++r) {
                html += QStringLiteral("<tr>");
                for (int c = 0; c < t.rows[r].size(); ++c) {
                    QString cls = toneClass(t, r, c);
                    if (isText(c))
                        cls = cls.isEmpty() ? QStringLiteral(" class=\"t\"")
                                            : cls.left(cls.size() - 1) + QStringLiteral(" t\"");
                    html += QStringLiteral("<td%1>%2</td>").arg(cls, escape(t.rows[r][c]));
                }
                html += QStringLiteral("</tr>\n");
            }
            html += QStringLiteral("</tbody></table>\n");
        }
        for (const ReportImage &img : s.images) {
            // At its logical width (a 2× picture shows as crisp as the text), at most the page's.
            html += QStringLiteral("<figure><img alt=\"%1\" width=\"%3\" src=\"%2\">"
                                   "<figcaption>%1</figcaption></figure>\n")
                        .arg(escape(img.caption), pngDataUri(img.image))
                        .arg(qRound(img.image.deviceIndependentSize().width()));
        }
    }
    html += QStringLiteral("</body></html>\n");
    return html;
}

QString reportMarkdown(const Report &report)
{
    QString md = QStringLiteral("# %1\n\n").arg(report.title);
    for (const ReportSection &s : report.sections) {
        md += QStringLiteral("## %1\n\n").arg(s.title);
        for (const QString &p : s.paragraphs)
            md += p + QStringLiteral("\n\n");
        for (const ReportTable &t : s.tables) {
            if (!t.title.isEmpty())
                md += QStringLiteral("### %1\n\n").arg(t.title);
            QStringList header;
            QStringList rule;
            for (const QString &h : t.header) {
                header << markdownCell(h);
                rule << QStringLiteral("---");
            }
            md +=
                QStringLiteral("| ") + header.join(QStringLiteral(" | ")) + QStringLiteral(" |\n");
            md += QStringLiteral("|") + rule.join(QStringLiteral("|")) + QStringLiteral("|\n");
            for (const QStringList &row : t.rows) {
                QStringList cells;
                for (const QString &c : row)
                    cells << markdownCell(c);
                md += QStringLiteral("| ") + cells.join(QStringLiteral(" | "))
                    + QStringLiteral(" |\n");
            }
            md += QLatin1Char('\n');
        }
        for (const ReportImage &img : s.images)
            md += QStringLiteral("![%1](%2)\n\n").arg(img.caption, img.fileName);
    }
    return md;
}

bool writeReport(const Report &report, const QString &dir, QString *error)
{
    if (!QDir().mkpath(dir)) {
        if (error)
            *error = QStringLiteral("%1: cannot create the folder").arg(dir);
        return false;
    }
    const QDir out(dir);
    for (const ReportSection &s : report.sections) {
        for (const ReportImage &img : s.images) {
            if (!img.image.save(out.filePath(img.fileName), "PNG")) {
                if (error)
                    *error = QStringLiteral("%1: cannot write").arg(out.filePath(img.fileName));
                return false;
            }
        }
    }
    const auto writeText = [&](const QString &name, const QString &text) {
        QSaveFile f(out.filePath(name));
        if (!f.open(QIODevice::WriteOnly) || f.write(text.toUtf8()) < 0 || !f.commit()) {
            if (error)
                *error = QStringLiteral("%1: cannot write").arg(out.filePath(name));
            return false;
        }
        return true;
    };
    return writeText(QStringLiteral("report.html"), reportHtml(report))
        && writeText(QStringLiteral("report.md"), reportMarkdown(report))
        && (report.summaryMarkdown.isEmpty()
            || writeText(QStringLiteral("summary.md"), report.summaryMarkdown));
}

} // namespace stepscope::ui

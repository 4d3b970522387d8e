// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <QImage>
#include <QString>
#include <QStringList>

#include <vector>

namespace stepscope::ui {

/// How a table cell should be coloured: by whether "after" got better or worse.
enum class CellTone { Plain, Better, Worse };

struct ReportTable
{
    QString title;
    QStringList header;
    std::vector<QStringList> rows;
    std::vector<std::vector<CellTone>> tones; ///< optional, same shape as rows
};

struct ReportImage
{
    QString caption;
    QString fileName; ///< name of the PNG written beside report.md
    QImage image;
};

struct ReportSection
{
    QString title;
    QStringList paragraphs;
    std::vector<ReportTable> tables;
    std::vector<ReportImage> images;
};

struct Report
{
    QString title;
    std::vector<ReportSection> sections;
    /// When set, written as summary.md beside report.md (the compare report's Markdown
    /// summary, from core: analysis::compareMarkdown).
    QString summaryMarkdown;
};

/// Writes `<dir>/report.html` (self-contained: images embedded as data: URIs, inline CSS,
/// no external reference) and `<dir>/report.md` with the PNGs beside it (and summary.md when
/// the report has one). Returns false and
/// sets `error` (naming the file) when a file cannot be written.
bool writeReport(const Report &report, const QString &dir, QString *error);

/// The HTML text alone (for tests and the GUI's preview).
QString reportHtml(const Report &report);
QString reportMarkdown(const Report &report);

} // namespace stepscope::ui

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "trainingpanel.h"

#include "analysis/skippedsteps.h"
#include "ui/charts/elide.h"
#include "ui/charts/stepchart.h"
#include "ui/palette.h"

#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>

namespace stepscope::ui {

namespace {

using model::LogSeries;
using model::LogSeriesKind;

constexpr std::size_t MaxLinesPerChart = 8;

/// The folder every log of `runs` lies in (their deepest common folder).
QString commonFolder(const std::vector<analysis::TrainingRun> &runs)
{
    QStringList common;
    bool first = true;
    for (const analysis::TrainingRun &r : runs) {
        const QStringList parts =
            QFileInfo(QString::fromStdString(r.log->source)).absolutePath().split(QLatin1Char('/'));
        if (first) {
            common = parts;
            first = false;
            continue;
        }
        int n = 0;
        while (n < common.size() && n < parts.size() && common[n] == parts[n])
            ++n;
        common = common.mid(0, n);
    }
    return common.join(QLatin1Char('/'));
}

} // namespace

QString TrainingPanel::runLabel(const analysis::TrainingRun &run, const QString &commonFolder)
{
    // Runs are often files of one name in sibling folders (Lightning's version_0/metrics.csv,
    // version_1/metrics.csv): the picker names the path below the shared folder, or the
    // file's own folder when every log lies in one.
    const QFileInfo file(QString::fromStdString(run.log->source));
    QString path = file.absoluteFilePath();
    if (file.absolutePath() == commonFolder)
        path = file.dir().dirName() + QLatin1Char('/') + file.fileName();
    else if (!commonFolder.isEmpty() && path.startsWith(commonFolder + QLatin1Char('/')))
        path = path.mid(commonFolder.size() + 1);
    QString label = QString::fromStdString(run.label);
    if (label.startsWith(file.fileName()))
        label = path + label.mid(file.fileName().size());
    return QStringLiteral("%1: %2").arg(run.index).arg(label);
}

namespace {

/// One small multiple: its title, the kinds it shows and its default axis.
struct Group
{
    QString title;
    std::vector<LogSeriesKind> kinds;
    bool log = false; ///< always logarithmic
    double logSpan = 0; ///< logarithmic when max / min of positive values exceeds this
};

const std::vector<Group> &groups()
{
    static const std::vector<Group> g = {
        {QStringLiteral("Loss"), {LogSeriesKind::Loss, LogSeriesKind::EvalLoss}, false, 10},
        {QStringLiteral("Perplexity"), {LogSeriesKind::Perplexity}, false, 10},
        {QStringLiteral("Grad norm"), {LogSeriesKind::GradNorm}, true, 0},
        // Linear, as TensorBoard draws it: a schedule decaying towards 0 went log-scaled
        // and Qt Charts cut its "1e-05" ticks to "..."; linear ticks count in ×1e-5.
        {QStringLiteral("Learning rate"), {LogSeriesKind::LearningRate}, false, 0},
        {QStringLiteral("Loss scale"), {LogSeriesKind::LossScale}, true, 0},
        {QStringLiteral("Step time"), {LogSeriesKind::StepTime}, false, 0},
        {QStringLiteral("Throughput"), {LogSeriesKind::Throughput}, false, 0},
        {QStringLiteral("MFU"), {LogSeriesKind::Mfu}, false, 0},
        {QStringLiteral("Memory"), {LogSeriesKind::Memory}, false, 0},
    };
    return g;
}

QString q(const std::string &s)
{
    return QString::fromStdString(s);
}

} // namespace

TrainingPanel::TrainingPanel(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    auto *top = new QHBoxLayout;
    m_runLabel = new QLabel(tr("Run:"), this);
    top->addWidget(m_runLabel);
    m_runBox = new QComboBox(this);
    m_runBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    top->addWidget(m_runBox);
    m_info = new ElidedLabel(this); // a long producer or path: elided, whole in the tooltip
    top->addWidget(m_info, 1);
    layout->addLayout(top);
    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    layout->addWidget(m_message);
    m_health = new QListWidget(this);
    m_health->setWordWrap(true);
    layout->addWidget(m_health);
    m_grid = new QWidget(this);
    m_gridLayout = new QGridLayout(m_grid);
    // Two equal columns: a chart alone in its row must not squeeze its neighbour.
    m_gridLayout->setColumnStretch(0, 1);
    m_gridLayout->setColumnStretch(1, 1);
    m_gridLayout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_grid, 1);
    connect(m_runBox, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0 && index != m_run)
            setRun(index);
    });
    connect(m_health, &QListWidget::itemActivated, this, [this](QListWidgetItem *item) {
        const int i = m_health->row(item);
        if (i >= 0 && static_cast<std::size_t>(i) < m_findings.size()
            && m_findings[static_cast<std::size_t>(i)].line > 0)
            openLog(q(m_runs[static_cast<std::size_t>(m_run)].log->source),
                m_findings[static_cast<std::size_t>(i)].line);
    });
    rebuild();
}

TrainingPanel::~TrainingPanel() = default;

void TrainingPanel::setSession(std::shared_ptr<const model::Session> session)
{
    m_session = std::move(session);
    m_runs = m_session ? analysis::trainingRuns(*m_session) : std::vector<analysis::TrainingRun> {};
    const analysis::TrainingRun *main = analysis::mainTrainingRun(m_runs);
    m_run = main ? static_cast<int>(main->index) : 0;
    const QSignalBlocker block(m_runBox);
    m_runBox->clear();
    const QString folder = commonFolder(m_runs);
    for (const analysis::TrainingRun &r : m_runs) {
        m_runBox->addItem(runLabel(r, folder));
        m_runBox->setItemData(m_runBox->count() - 1, q(r.log->source), Qt::ToolTipRole);
    }
    m_runBox->setCurrentIndex(m_run);
    rebuild();
}

void TrainingPanel::setRun(int run)
{
    if (run < 0 || run >= runCount())
        return;
    m_run = run;
    const QSignalBlocker block(m_runBox);
    m_runBox->setCurrentIndex(run);
    rebuild();
}

StepChart *TrainingPanel::chart(const QString &title) const
{
    for (StepChart *c : m_charts) {
        if (c->title() == title)
            return c;
    }
    return nullptr;
}

bool TrainingPanel::showsMessage() const
{
    return !m_message->isHidden();
}

QString TrainingPanel::messageText() const
{
    return m_message->text();
}

void TrainingPanel::rebuild()
{
    for (StepChart *c : m_charts)
        delete c;
    m_charts.clear();
    m_health->clear();
    m_findings.clear();
    if (m_runs.empty()) {
        m_message->setText(
            tr("No training log in this session. Open a training log, or a "
               "folder of logs, alone or beside the profile (docs/formats.md §10)."));
        m_message->show();
        m_health->hide();
        m_info->setFullText(QString());
        // No run to pick: no empty, disabled "Run:" picker above the sentence.
        m_runLabel->hide();
        m_runBox->hide();
        return;
    }
    m_message->hide();
    m_runLabel->show();
    m_runBox->show();
    m_runBox->setEnabled(m_runs.size() > 1);
    const analysis::TrainingRun &run = m_runs[static_cast<std::size_t>(m_run)];
    const model::TrainingLog &log = *run.log;
    const QString source = q(log.source);

    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    std::int64_t last = std::numeric_limits<std::int64_t>::min();
    for (const LogSeries &s : log.series) {
        if (s.run != run.run || s.empty() || s.kind == LogSeriesKind::WallTime)
            continue;
        first = std::min(first, s.steps.front());
        last = std::max(last, s.steps.back());
    }
    m_info->setFullText(tr("%1 — steps %2–%3, %4 points")
                            .arg(q(log.producer))
                            .arg(first)
                            .arg(last)
                            .arg(analysis::loggedPoints(run)));

    // Health findings of this run.
    for (const analysis::HealthFinding &f : analysis::trainingHealth(log)) {
        if (f.run != run.run)
            continue;
        m_findings.push_back(f);
        auto *item = new QListWidgetItem(QStringLiteral("[%1] %2: %3")
                                             .arg(q(std::string(healthSeverityName(f.severity))))
                                             .arg(q(std::string(healthKindName(f.kind))))
                                             .arg(q(f.evidence)),
            m_health);
        item->setToolTip(
            tr("Rule: %1\nDouble-click to open the log at line %2").arg(q(f.rule)).arg(f.line));
    }
    if (m_findings.empty())
        new QListWidgetItem(
            tr("No health finding (rules: docs/metrics.md, Training health)."), m_health);
    // As tall as its lines (one finding is one line, not a 110 px box), at most 110 px.
    int lines = 2 * m_health->frameWidth();
    for (int i = 0; i < m_health->count(); ++i)
        lines += std::max(m_health->sizeHintForRow(i), m_health->fontMetrics().height() + 2);
    m_health->setFixedHeight(std::min(110, lines));
    m_health->show();

    const analysis::SkippedSteps skipped = analysis::skippedSteps(log, run.run);
    int index = 0;
    for (const Group &g : groups()) {
        std::vector<const LogSeries *> members;
        std::map<std::string, int> perName;
        for (const LogSeries &s : log.series) {
            if (s.run != run.run || s.empty()
                || std::find(g.kinds.begin(), g.kinds.end(), s.kind) == g.kinds.end())
                continue;
            if (members.size() < MaxLinesPerChart && ++perName[s.name] <= 4)
                members.push_back(&s);
        }
        if (members.empty())
            continue;
        auto *c = new StepChart(m_grid);
        c->setTitle(g.title);
        double lo = std::numeric_limits<double>::infinity();
        double hi = 0;
        QString unit;
        for (std::size_t i = 0; i < members.size(); ++i) {
            const LogSeries &s = *members[i];
            for (double v : s.values) {
                if (std::isfinite(v) && v > 0)
                    lo = std::min(lo, v), hi = std::max(hi, v);
            }
            QString name = q(s.name);
            if (s.rank >= 0)
                name += tr(" (rank %1)").arg(s.rank);
            if (!s.unit.empty())
                unit = q(s.unit);
            c->addLine(name, runSeriesColor(i, currentTheme()), s.steps, s.values, s.lines, source);
        }
        // Every chart has a value axis title (the group, with its unit); bytes in binary units.
        const bool bytes = unit == QLatin1String("bytes") || unit == QLatin1String("B");
        const double nsPerUnit = unit == QLatin1String("s") ? 1e9
            : unit == QLatin1String("ms")                   ? 1e6
            : unit == QLatin1String("us")                   ? 1e3
                                                            : 0;
        c->setBytes(bytes);
        c->setDurationUnit(nsPerUnit);
        c->setValueAxisTitle(unit.isEmpty() || bytes || nsPerUnit > 0
                ? g.title
                : QStringLiteral("%1 (%2)").arg(g.title, unit));
        c->setLogScale(g.log || (g.logSpan > 0 && lo > 0 && hi / lo > g.logSpan));
        if (!skipped.steps.empty()
            && (g.kinds.front() == LogSeriesKind::Loss
                || g.kinds.front() == LogSeriesKind::LossScale
                || (g.kinds.front() == LogSeriesKind::Perplexity
                    && !log.findKind(LogSeriesKind::Loss, run.run))))
            c->addEvents(tr("skipped steps"), skippedStepColor(currentTheme()), skipped.steps,
                skipped.lines, source, skipped.count);
        c->setStepRange(first, last);
        connect(
            c, &StepChart::pointClicked, this, [this](qint64, qint64 line, const QString &file) {
                if (line > 0)
                    openLog(file, line);
            });
        m_gridLayout->addWidget(c, index / 2, index % 2);
        m_charts.push_back(c);
        ++index;
    }
    // A chart alone in the last row takes the whole width (one loss chart is not half a dock).
    if (index % 2 == 1) {
        m_gridLayout->removeWidget(m_charts.back());
        m_gridLayout->addWidget(m_charts.back(), (index - 1) / 2, 0, 1, 2);
    }
    // Every row of charts the same height: when the dock grew, the lone last one kept its
    // 170 px minimum (megatron-golden-values' memory chart, its axis title cut to "(MiB)").
    const int rows = (index + 1) / 2;
    for (int r = 0; r < std::max(rows, m_gridLayout->rowCount()); ++r)
        m_gridLayout->setRowStretch(r, r < rows ? 1 : 0);
}

void TrainingPanel::openLog(const QString &file, qint64 line)
{
    if (!m_viewer) {
        m_viewer = new QDialog(this);
        m_viewer->resize(900, 600);
        auto *layout = new QVBoxLayout(m_viewer);
        m_viewerText = new QPlainTextEdit(m_viewer);
        m_viewerText->setReadOnly(true);
        m_viewerText->setLineWrapMode(QPlainTextEdit::NoWrap);
        layout->addWidget(m_viewerText);
    }
    if (m_openedFile != file) {
        QFile f(file);
        // Logs are read up to 64 MiB here; the line numbers of bigger files past that point
        // are not shown.
        if (f.open(QIODevice::ReadOnly))
            m_viewerText->setPlainText(QString::fromUtf8(f.read(qint64 {64} << 20)));
        else
            m_viewerText->setPlainText(tr("Cannot open %1").arg(file));
    }
    m_openedFile = file;
    m_openedLine = line;
    m_viewer->setWindowTitle(tr("%1 — line %2").arg(QFileInfo(file).fileName()).arg(line));
    const QTextBlock block = m_viewerText->document()->findBlockByNumber(
        static_cast<int>(std::max<qint64>(line - 1, 0)));
    QTextCursor cursor(block);
    cursor.select(QTextCursor::LineUnderCursor);
    m_viewerText->setTextCursor(cursor);
    m_viewerText->centerCursor();
    m_viewer->show();
    m_viewer->raise();
}

QString TrainingPanel::openedLineText() const
{
    return m_viewerText ? m_viewerText->textCursor().block().text() : QString();
}

} // namespace stepscope::ui

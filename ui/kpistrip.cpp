// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "kpistrip.h"

#include "analysis/compareoutput.h"
#include "analysis/units.h"
#include "palette.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

#include <algorithm>
#include <cmath>

namespace stepscope::ui {

namespace {

struct KpiInfo
{
    const char *key;
    const char *label;
    const char *definition;
};

// Definitions as in docs/metrics.md (one paragraph each, shortened for a tooltip).
constexpr KpiInfo Shown[] = {
    {"step_time_mean_us", "step",
        "Mean wall time of a training step (slowest rank per step number)."},
    {"tokens_per_s", "",
        "Tokens processed per second by the whole job: global batch × sequence length / step "
        "time. Without a sequence length, samples per second: global batch / step time. "
        "Needs the run config."},
    {"mfu", "MFU",
        "Model FLOPs utilisation: model FLOPs per second (6 × parameters per token for "
        "training) / (peak FLOP/s per device × devices)."},
    {"comm_share", "comm",
        "Share of step time spent in communication not hidden under compute (exposed)."},
    {"data_wait_share", "data wait",
        "Share of step time the device is idle while the host is loading data."},
    {"memory_peak_allocated_bytes", "peak",
        "Highest device memory allocated by the framework's allocator over the capture."},
};

QString labelled(const KpiInfo &info, const QString &value)
{
    const QString label = QString::fromUtf8(info.label);
    // Throughput: the unit is the label ("27.5 k tok/s", "195 samples/s", "tok/s —"; in
    // compare mode "tok/s — → —", which read "— → —" with nothing to say what it was).
    if (label.isEmpty())
        return value.contains(QStringLiteral("/s")) ? value : QStringLiteral("tok/s ") + value;
    return label + QLatin1Char(' ') + value;
}

/// The KPI a slot shows: the throughput slot shows the headline throughput (samples/s for a
/// CNN), the same on both sides in compare mode.
std::string slotKey(const KpiInfo &info, const analysis::Kpis &a, const analysis::Kpis *b = nullptr)
{
    if (std::string_view(info.key) == "tokens_per_s")
        return std::string(analysis::headlineThroughputKey(a, b));
    return info.key;
}

} // namespace

QString formatKpiValue(const analysis::Kpi &kpi)
{
    if (!kpi.value)
        return QStringLiteral("—");
    const double v = *kpi.value;
    if (kpi.unit == "us")
        return QString::fromStdString(analysis::formatDuration(std::llround(v * 1000.0)));
    if (kpi.unit == "fraction")
        return QString::fromStdString(analysis::formatShare(v));
    if (kpi.unit == "bytes")
        return QString::fromStdString(analysis::formatBytes(std::llround(v)));
    if (kpi.unit == "tokens/s" || kpi.unit == "samples/s") {
        const QString unit =
            kpi.unit == "tokens/s" ? QStringLiteral("tok/s") : QStringLiteral("samples/s");
        if (v >= 1e6)
            return QStringLiteral("%1 M %2").arg(
                QString::fromStdString(analysis::formatSignificant(v / 1e6)), unit);
        if (v >= 1e3)
            return QStringLiteral("%1 k %2").arg(
                QString::fromStdString(analysis::formatSignificant(v / 1e3)), unit);
        return QString::fromStdString(analysis::formatSignificant(v)) + QLatin1Char(' ') + unit;
    }
    return QString::fromStdString(analysis::formatSignificant(v)) + QLatin1Char(' ')
        + QString::fromStdString(kpi.unit);
}

KpiStrip::KpiStrip(QWidget *parent)
    : QWidget(parent)
{
    m_layout = new QHBoxLayout(this);
    m_layout->setContentsMargins(4, 2, 4, 2);
    m_layout->setSpacing(2);
    build();
    clear();
}

const std::vector<std::string> &KpiStrip::shownKeys()
{
    static const std::vector<std::string> keys = [] {
        std::vector<std::string> k;
        for (const KpiInfo &i : Shown)
            k.emplace_back(i.key);
        return k;
    }();
    return keys;
}

void KpiStrip::build()
{
    m_scope = new QLabel(this);
    m_scope->setObjectName(QStringLiteral("kpiScope"));
    m_scope->hide();
    m_layout->addWidget(m_scope);
    const auto &keys = shownKeys();
    for (std::size_t i = 0; i < keys.size(); ++i) {
        if (i > 0) {
            auto *sep = new QFrame(this);
            sep->setFrameShape(QFrame::VLine);
            sep->setFrameShadow(QFrame::Sunken);
            m_layout->addWidget(sep);
        }
        auto *b = new QToolButton(this);
        b->setAutoRaise(true);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        const QString key = QString::fromStdString(keys[i]);
        connect(b, &QToolButton::clicked, this, [this, i, key] {
            emit kpiClicked(key);
            if (m_missing[i])
                emit runConfigRequested();
        });
        m_layout->addWidget(b);
        m_buttons.push_back(b);
    }
    m_layout->addStretch(1);
    m_missing.assign(keys.size(), true);
}

void KpiStrip::clear()
{
    for (std::size_t i = 0; i < m_buttons.size(); ++i) {
        m_buttons[i]->setText(labelled(Shown[i], QStringLiteral("—")));
        m_buttons[i]->setToolTip(QString::fromUtf8(Shown[i].definition));
        m_missing[i] = true;
    }
}

void KpiStrip::setKpis(const analysis::Kpis &kpis)
{
    for (std::size_t i = 0; i < m_buttons.size(); ++i) {
        const KpiInfo &info = Shown[i];
        const analysis::Kpi *kpi = kpis.find(slotKey(info, kpis));
        QString tip = QString::fromUtf8(info.definition);
        QFont f = font();
        if (kpi && kpi->value) {
            m_buttons[i]->setText(labelled(info, formatKpiValue(*kpi)));
            if (std::string(info.key) == "mfu" && !kpis.peakSource.empty())
                tip += QStringLiteral("\nPeak: %1 (%2)")
                           .arg(QString::fromStdString(kpis.device),
                               QString::fromStdString(kpis.peakSource));
            m_missing[i] = false;
        } else {
            const QString reason = kpi && !kpi->missingReason.empty()
                ? QString::fromStdString(kpi->missingReason)
                : QStringLiteral("not computed for this profile");
            m_buttons[i]->setText(labelled(info, QStringLiteral("—")));
            tip += QStringLiteral("\nMissing: %1\nClick to fill in the run config.").arg(reason);
            f.setItalic(true);
            m_missing[i] = true;
        }
        m_buttons[i]->setFont(f);
        m_buttons[i]->setToolTip(tip);
        m_buttons[i]->setStyleSheet(QString());
    }
}

void KpiStrip::setComparison(const analysis::Kpis &before, const analysis::Kpis &after,
    const std::vector<analysis::DeltaRow> &rows)
{
    const Theme theme = currentTheme();
    for (std::size_t i = 0; i < m_buttons.size(); ++i) {
        const KpiInfo &info = Shown[i];
        const std::string key = slotKey(info, before, &after);
        const analysis::Kpi *a = before.find(key);
        const analysis::Kpi *b = after.find(key);
        const bool have = a && a->value && b && b->value;
        QString text = labelled(info,
            QStringLiteral("%1 → %2").arg(a ? formatKpiValue(*a) : QStringLiteral("—"),
                b ? formatKpiValue(*b) : QStringLiteral("—")));
        QString style;
        const auto row = std::find_if(
            rows.begin(), rows.end(), [&key](const analysis::DeltaRow &r) { return r.key == key; });
        if (have && row != rows.end() && row->percent) {
            text += QStringLiteral(" (%1)").arg(
                QString::fromStdString(analysis::formatRowPercent(*row->percent)));
            if (row->verdict == analysis::Verdict::Improved)
                style = QStringLiteral("color: %1;").arg(betterColor(theme).name());
            else if (row->verdict == analysis::Verdict::Regressed)
                style = QStringLiteral("color: %1;").arg(worseColor(theme).name());
        }
        m_missing[i] = !have;
        m_buttons[i]->setText(text);
        m_buttons[i]->setStyleSheet(
            style.isEmpty() ? QString() : QStringLiteral("QToolButton { %1 }").arg(style));
        m_buttons[i]->setToolTip(QString::fromUtf8(info.definition));
    }
}

void KpiStrip::setScope(const QString &caption, const QString &toolTip)
{
    m_scope->setText(caption);
    m_scope->setToolTip(toolTip);
    m_scope->setVisible(!caption.isEmpty());
}

QString KpiStrip::scope() const
{
    return m_scope->text();
}

QToolButton *KpiStrip::button(const std::string &key) const
{
    const auto &keys = shownKeys();
    const auto it = std::find(keys.begin(), keys.end(), key);
    if (it == keys.end())
        return nullptr;
    return m_buttons[static_cast<std::size_t>(it - keys.begin())];
}

QString KpiStrip::text(const std::string &key) const
{
    const QToolButton *b = button(key);
    return b ? b->text() : QString();
}

QString KpiStrip::toolTip(const std::string &key) const
{
    const QToolButton *b = button(key);
    return b ? b->toolTip() : QString();
}

bool KpiStrip::isMissing(const std::string &key) const
{
    const auto &keys = shownKeys();
    const auto it = std::find(keys.begin(), keys.end(), key);
    return it == keys.end() || m_missing[static_cast<std::size_t>(it - keys.begin())];
}

void KpiStrip::click(const std::string &key)
{
    if (QToolButton *b = button(key))
        b->click();
}

} // namespace stepscope::ui

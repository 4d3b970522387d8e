// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "runconfigdialog.h"

#include <nlohmann/json.hpp>

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>

#include <algorithm>
#include <cmath>

namespace stepscope::ui {

namespace {
QString amountText(const std::optional<double> &v)
{
    return v ? QString::number(*v, 'g', 12) : QString();
}
} // namespace

std::optional<double> RunConfigDialog::parseAmount(const QString &text)
{
    QString t = text.trimmed();
    t.remove(QLatin1Char(',')).remove(QLatin1Char('_')).remove(QLatin1Char(' '));
    if (t.isEmpty())
        return std::nullopt;
    double factor = 1;
    const QChar last = t.back().toUpper();
    if (last == QLatin1Char('K') || last == QLatin1Char('M') || last == QLatin1Char('B')
        || last == QLatin1Char('G') || last == QLatin1Char('T') || last == QLatin1Char('P')) {
        factor = last == QLatin1Char('K') ? 1e3
            : last == QLatin1Char('M')    ? 1e6
            : last == QLatin1Char('T')    ? 1e12
            : last == QLatin1Char('P')    ? 1e15
                                          : 1e9;
        t.chop(1);
    }
    bool ok = false;
    const double v = t.toDouble(&ok);
    if (!ok || !std::isfinite(v) || v <= 0)
        return std::nullopt;
    return v * factor;
}

RunConfigDialog::RunConfigDialog(const analysis::RunConfig &config, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Run config"));
    auto *form = new QFormLayout(this);
    auto *intro = new QLabel(tr("What the profile does not record. Empty fields stay unknown "
                                "and the KPIs that need them say so. Amounts accept 7e9, 7B, "
                                "1.5M."),
        this);
    intro->setWordWrap(true);
    form->addRow(intro);
    const auto line = [this](const QString &text, const QString &placeholder) {
        auto *edit = new QLineEdit(text, this);
        edit->setPlaceholderText(placeholder);
        return edit;
    };
    m_parameters = line(amountText(config.parameters), tr("e.g. 7B"));
    m_batch = line(amountText(config.globalBatchSize), tr("samples per step, whole job"));
    m_sequence = line(amountText(config.sequenceLength), tr("tokens per sample"));
    m_peak = line(amountText(config.peakFlops), tr("per device; empty = from the device table"));
    m_devices = line(config.deviceCount ? QString::number(*config.deviceCount) : QString(),
        tr("empty = ranks in the profile"));
    m_device =
        line(QString::fromStdString(config.device), tr("empty = the device the trace names"));
    // Created after the other fields: the line edits keep their order (tests, tab order).
    m_modelType = new QComboBox(this);
    m_modelType->addItem(tr("not said"), QString());
    m_modelType->addItem(tr("transformer language model"), QStringLiteral("transformer_lm"));
    m_modelType->addItem(tr("CNN"), QStringLiteral("cnn"));
    m_modelType->addItem(tr("other"), QStringLiteral("other"));
    m_modelType->setToolTip(tr("MFU from 6 × parameters × tokens only for a transformer "
                               "language model; any other model needs FLOPs per sample."));
    const int typeIndex = m_modelType->findData(
        QString::fromStdString(config.isTransformerLm() ? "transformer_lm" : config.modelType));
    if (typeIndex < 0 && !config.modelType.empty()) // a type of its own from stepscope.json
        m_modelType->addItem(
            QString::fromStdString(config.modelType), QString::fromStdString(config.modelType));
    m_modelType->setCurrentIndex(
        typeIndex >= 0 ? typeIndex : std::max(0, m_modelType->count() - 1));
    m_flopsPerSample = line(amountText(config.flopsPerSample),
        tr("model FLOPs of one sample (forward + backward); any model"));
    m_precision = new QComboBox(this);
    m_precision->addItems(
        {QString(), QStringLiteral("fp32"), QStringLiteral("tf32"), QStringLiteral("bf16"),
            QStringLiteral("fp16"), QStringLiteral("fp8"), QStringLiteral("int8")});
    m_precision->setCurrentText(QString::fromStdString(config.precision));
    m_optimizer = new QComboBox(this);
    m_optimizer->addItems(
        {QString(), QStringLiteral("adam"), QStringLiteral("adamw"), QStringLiteral("sgd")});
    m_optimizer->setEditable(true);
    m_optimizer->setCurrentText(QString::fromStdString(config.optimizer));
    form->addRow(tr("Parameters:"), m_parameters);
    form->addRow(tr("Model type:"), m_modelType);
    form->addRow(tr("FLOPs per sample:"), m_flopsPerSample);
    form->addRow(tr("Global batch size:"), m_batch);
    form->addRow(tr("Sequence length:"), m_sequence);
    form->addRow(tr("Peak FLOP/s per device:"), m_peak);
    form->addRow(tr("Device count:"), m_devices);
    form->addRow(tr("Device name:"), m_device);
    form->addRow(tr("Precision:"), m_precision);
    form->addRow(tr("Optimizer:"), m_optimizer);
    m_save = new QCheckBox(tr("Save as stepscope.json beside the profile"), this);
    form->addRow(m_save);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

analysis::RunConfig RunConfigDialog::config() const
{
    analysis::RunConfig c;
    c.parameters = parseAmount(m_parameters->text());
    c.modelType = m_modelType->currentData().toString().toStdString();
    c.flopsPerSample = parseAmount(m_flopsPerSample->text());
    c.globalBatchSize = parseAmount(m_batch->text());
    c.sequenceLength = parseAmount(m_sequence->text());
    c.peakFlops = parseAmount(m_peak->text());
    if (const auto n = parseAmount(m_devices->text()))
        c.deviceCount = static_cast<std::int64_t>(std::llround(*n));
    c.device = m_device->text().trimmed().toStdString();
    c.precision = m_precision->currentText().trimmed().toLower().toStdString();
    c.optimizer = m_optimizer->currentText().trimmed().toLower().toStdString();
    c.source = "GUI";
    return c;
}

std::string RunConfigDialog::toJson() const
{
    const analysis::RunConfig c = config();
    nlohmann::json j = nlohmann::json::object();
    if (c.parameters)
        j["parameters"] = *c.parameters;
    if (!c.modelType.empty())
        j["model_type"] = c.modelType;
    if (c.flopsPerSample)
        j["flops_per_sample"] = *c.flopsPerSample;
    if (c.globalBatchSize)
        j["global_batch_size"] = *c.globalBatchSize;
    if (c.sequenceLength)
        j["sequence_length"] = *c.sequenceLength;
    if (c.peakFlops)
        j["peak_flops"] = *c.peakFlops;
    if (c.deviceCount)
        j["device_count"] = *c.deviceCount;
    if (!c.device.empty())
        j["device"] = c.device;
    if (!c.precision.empty())
        j["precision"] = c.precision;
    if (!c.optimizer.empty())
        j["optimizer"] = c.optimizer;
    return j.dump(2) + "\n";
}

bool RunConfigDialog::saveBesideProfile() const
{
    return m_save->isChecked();
}

} // namespace stepscope::ui

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "analysis/kpis.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLineEdit;

namespace stepscope::ui {

/// The run config in the GUI (docs/metrics.md "Run config"): what the profile lacks for
/// tokens/s, MFU and the memory estimate. Empty fields stay unset, never 0.
class RunConfigDialog : public QDialog
{
    Q_OBJECT

public:
    explicit RunConfigDialog(const analysis::RunConfig &config, QWidget *parent = nullptr);

    /// The edited config; fields the user left empty are unset.
    analysis::RunConfig config() const;
    /// The same as stepscope.json text (only the set keys).
    std::string toJson() const;
    /// True when the user asked to save it as stepscope.json beside the profile.
    bool saveBesideProfile() const;

    /// Parses "7e9", "7,000,000,000", "7B" (billions), "1.5M"; nullopt when empty or invalid.
    static std::optional<double> parseAmount(const QString &text);

private:
    QLineEdit *m_parameters = nullptr;
    QComboBox *m_modelType = nullptr; ///< transformer_lm: MFU from 6 × parameters × tokens
    QLineEdit *m_flopsPerSample = nullptr;
    QLineEdit *m_batch = nullptr;
    QLineEdit *m_sequence = nullptr;
    QLineEdit *m_peak = nullptr;
    QLineEdit *m_devices = nullptr;
    QLineEdit *m_device = nullptr;
    QComboBox *m_precision = nullptr;
    QComboBox *m_optimizer = nullptr;
    QCheckBox *m_save = nullptr;
};

} // namespace stepscope::ui

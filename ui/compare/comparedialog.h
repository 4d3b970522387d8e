// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <QDialog>
#include <QString>

class QDialogButtonBox;
class QLineEdit;

namespace stepscope::ui::compare {

/// File › Compare…: pick the "before" and "after" profile folders (or files). OK is enabled
/// when both paths exist and differ. GUI thread only.
class CompareDialog : public QDialog
{
    Q_OBJECT

public:
    explicit CompareDialog(QWidget *parent = nullptr);

    QString beforePath() const;
    QString afterPath() const;
    void setPaths(const QString &before, const QString &after);
    /// True when the current paths can be compared; `why` says what is missing otherwise.
    bool isAcceptable(QString *why = nullptr) const;

    /// Runs the dialog; true and both paths set when the user accepted.
    static bool getPair(
        QWidget *parent, QString *before, QString *after, const QString &initialBefore = QString());

private:
    void browse(QLineEdit *edit);
    void validate();

    QLineEdit *m_before = nullptr;
    QLineEdit *m_after = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace stepscope::ui::compare

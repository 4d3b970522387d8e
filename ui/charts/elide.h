// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <QLabel>
#include <QString>
#include <QStringList>

class QFontMetrics;

namespace stepscope::ui {

/// `text` elided in the middle to fit `width` pixels ("resnet50_n…workers_4 · step 10"): the
/// start and the end of a name are what tell names apart (DESIGN.md "Numbers and text").
/// The text itself when it fits; never wider than `width` (at worst "…"). Pure.
QString elideMiddle(const QString &text, const QFontMetrics &metrics, int width);

/// Each label elided in the middle to `width`, kept distinct: labels that would elide to the
/// same text keep more characters, and if still equal get an invisible distinguishing
/// suffix (chart category axes drop repeated categories). Same order and size.
QStringList elideMiddleDistinct(const QStringList &labels, const QFontMetrics &metrics, int width);

/// The one place a panel shows a name that may not fit: elided in the middle to the width the
/// layout gives it, re-elided on every resize, the full text in the tooltip (and in
/// fullText()). Plain text only.
class ElidedLabel : public QLabel
{
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget *parent = nullptr);
    explicit ElidedLabel(const QString &text, QWidget *parent = nullptr);

    void setFullText(const QString &text);
    QString fullText() const { return m_full; }
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void updateText();
    QString m_full;
};

} // namespace stepscope::ui

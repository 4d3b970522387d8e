// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "elide.h"

#include <QEvent>
#include <QFontMetrics>
#include <QHash>

#include <algorithm>

namespace stepscope::ui {

namespace {

const QChar Ellipsis(0x2026);

/// The first `head` and last `tail` characters around an ellipsis.
QString cut(const QString &text, int head, int tail)
{
    return text.left(head) + Ellipsis + text.right(tail);
}

} // namespace

QString elideMiddle(const QString &text, const QFontMetrics &metrics, int width)
{
    if (metrics.horizontalAdvance(text) <= width)
        return text;
    // Keep as many characters as fit, split evenly (the start gets the odd one): binary
    // search over the number kept, since advance grows with it.
    int lo = 0;
    int hi = static_cast<int>(text.size()) - 1;
    while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (metrics.horizontalAdvance(cut(text, (mid + 1) / 2, mid / 2)) <= width)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo > 0 || metrics.horizontalAdvance(Ellipsis) <= width ? cut(text, (lo + 1) / 2, lo / 2)
                                                                  : QString();
}

QStringList elideMiddleDistinct(const QStringList &labels, const QFontMetrics &metrics, int width)
{
    QStringList out;
    out.reserve(labels.size());
    for (const QString &l : labels)
        out << elideMiddle(l, metrics, width);
    // Labels that collide get a little more room, up to their full text.
    for (int extra = 1; extra <= 4; ++extra) {
        QHash<QString, int> seen;
        for (const QString &o : out)
            ++seen[o];
        bool collided = false;
        for (int i = 0; i < out.size(); ++i) {
            if (seen.value(out[i]) > 1 && out[i] != labels[i]) {
                out[i] =
                    elideMiddle(labels[i], metrics, width + extra * metrics.averageCharWidth());
                collided = true;
            }
        }
        if (!collided)
            break;
    }
    // Still equal (or equal full texts): zero-width spaces make them distinct for Qt.
    QHash<QString, int> count;
    for (QString &o : out) {
        const int n = count[o]++;
        if (n > 0)
            o += QString(n, QChar(0x200B));
    }
    return out;
}

ElidedLabel::ElidedLabel(QWidget *parent)
    : QLabel(parent)
{
    setTextFormat(Qt::PlainText);
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
}

ElidedLabel::ElidedLabel(const QString &text, QWidget *parent)
    : ElidedLabel(parent)
{
    setFullText(text);
}

void ElidedLabel::setFullText(const QString &text)
{
    m_full = text;
    setToolTip(text);
    updateGeometry();
    updateText();
}

QSize ElidedLabel::minimumSizeHint() const
{
    const QSize s = QLabel::minimumSizeHint();
    return {
        std::min(s.width(), fontMetrics().horizontalAdvance(QStringLiteral("M…M"))), s.height()};
}

QSize ElidedLabel::sizeHint() const
{
    const QMargins m = contentsMargins();
    return {fontMetrics().horizontalAdvance(m_full) + m.left() + m.right() + 2 * margin(),
        QLabel::sizeHint().height()};
}

void ElidedLabel::resizeEvent(QResizeEvent *event)
{
    QLabel::resizeEvent(event);
    updateText();
}

void ElidedLabel::changeEvent(QEvent *event)
{
    QLabel::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        updateText();
}

void ElidedLabel::updateText()
{
    const int width = contentsRect().width() - 2 * margin();
    const QString shown = elideMiddle(m_full, fontMetrics(), std::max(0, width));
    if (shown != text())
        QLabel::setText(shown);
}

} // namespace stepscope::ui

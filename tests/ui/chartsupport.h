// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Small helpers for the chart and panel tests: click a widget as a user would.
#pragma once

#include <QApplication>
#include <QGraphicsView>
#include <QMouseEvent>
#include <QWidget>

namespace stepscope::uitest {

/// Shows `w` at a fixed size offscreen and lets layouts settle.
inline void showAndSettle(QWidget &w, int width = 900, int height = 500)
{
    w.resize(width, height);
    w.show();
    for (int i = 0; i < 5; ++i)
        QApplication::processEvents();
}

/// A left click at `pos` (coordinates of `target`).
inline void leftClick(QWidget *target, const QPoint &pos)
{
    const QPointF local(pos);
    const QPointF global(target->mapToGlobal(pos));
    QMouseEvent press(
        QEvent::MouseButtonPress, local, global, Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &press);
    QMouseEvent release(
        QEvent::MouseButtonRelease, local, global, Qt::LeftButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(target, &release);
}

/// A left click at `posInOwner` (coordinates of `owner`) on the chart view inside it.
inline void clickChart(QWidget *owner, const QPoint &posInOwner)
{
    auto *view = owner->findChild<QGraphicsView *>();
    QWidget *viewport = view->viewport();
    leftClick(viewport, viewport->mapFrom(owner, posInOwner));
}

} // namespace stepscope::uitest

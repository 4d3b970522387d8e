// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Loading a path into a MainWindow as the user's Open does, waiting for the load to end.
#pragma once

#include "ui/mainwindow.h"

#include <QCoreApplication>
#include <QElapsedTimer>

namespace stepscope::uitest {

/// Opens `path` in `window` and runs the event loop until the load ends (two minutes at
/// most); whether it loaded.
inline bool loadInWindow(ui::MainWindow &window, const QString &path)
{
    bool done = false;
    bool ok = false;
    const auto c = QObject::connect(&window, &ui::MainWindow::loadFinished, [&](bool result) {
        done = true;
        ok = result;
    });
    window.openPath(path);
    QElapsedTimer t;
    t.start();
    while (!done && t.elapsed() < 120000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    QObject::disconnect(c);
    QCoreApplication::processEvents();
    return ok;
}

} // namespace stepscope::uitest

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// stepscope-shots: opens a profile (or two, compare mode) in the real main window, then saves
// a PNG of the whole window and one of every dock panel, each raised in turn, so that every
// panel can be looked at on every sample (issue 15, "Done when"). tests/tools/screenshots.sh
// runs it under xvfb-run for each sample at 1× and 2× (QT_SCALE_FACTOR), light and dark.
//
//   stepscope-shots [--dark] --out DIR --prefix NAME PATH [AFTER]
//
// --dark sets a dark Fusion palette on the application before the window exists: the
// panels pick their theme from the application palette (ui/palette.h currentTheme()).

#include "ui/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QPalette>
#include <QPixmap>
#include <QStyleFactory>
#include <QTabBar>
#include <QTimer>

#include <cstdio>

namespace {

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2b, 0x2b);
    const QColor base(0x1e, 0x1e, 0x1e);
    const QColor text(0xe6, 0xe6, 0xe6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
    p.setColor(QPalette::ToolTipBase, window);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x8a, 0x8a, 0x8a));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Link, QColor(0x56, 0xb4, 0xe9));
    p.setColor(QPalette::Highlight, QColor(0x2a, 0x6f, 0xb0));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Mid, QColor(0x55, 0x55, 0x55));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
    return p;
}

/// Lets queued work (analysis results, layout, charts) settle for `ms`.
void settle(int ms)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms)
        QApplication::processEvents(QEventLoop::AllEvents, 50);
}

bool save(const QPixmap &pixmap, const QString &path)
{
    const bool ok = pixmap.save(path);
    std::printf("%s %s\n", ok ? "wrote" : "cannot write", path.toLocal8Bit().constData());
    return ok;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("StepScope"));
    QApplication::setOrganizationName(QStringLiteral("StepScope"));
    QCommandLineParser parser;
    const QCommandLineOption dark(QStringLiteral("dark"), QStringLiteral("Dark palette."));
    const QCommandLineOption out(
        QStringLiteral("out"), QStringLiteral("Directory."), QStringLiteral("DIR"));
    const QCommandLineOption prefixOption(QStringLiteral("prefix"),
        QStringLiteral("File name prefix (not --name: Qt takes it)."), QStringLiteral("NAME"));
    const QCommandLineOption size(QStringLiteral("size"),
        QStringLiteral("Window size in logical pixels (default 1400x900)."), QStringLiteral("WxH"));
    parser.addOptions({dark, out, prefixOption, size});
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("PATH"), QStringLiteral("Profile (or BEFORE)."));
    parser.addPositionalArgument(QStringLiteral("AFTER"), QStringLiteral("Compare with it."));
    parser.process(app);
    const QStringList paths = parser.positionalArguments();
    if (paths.isEmpty() || paths.size() > 2 || !parser.isSet(out)) {
        std::fputs(
            "usage: stepscope-shots [--dark] --out DIR --prefix NAME PATH [AFTER]\n", stderr);
        return 2;
    }
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    if (parser.isSet(dark))
        QApplication::setPalette(darkPalette());
    const QString dir = parser.value(out);
    QDir().mkpath(dir);
    const QString prefix = QDir(dir).filePath(parser.value(prefixOption));

    stepscope::ui::MainWindow window;
    int w = 1400;
    int h = 900;
    if (parser.isSet(size)) {
        const QStringList wh = parser.value(size).split(QLatin1Char('x'));
        if (wh.size() == 2) {
            w = wh[0].toInt();
            h = wh[1].toInt();
        }
    }
    window.resize(w, h);
    window.show();
    bool loaded = false;
    QObject::connect(
        &window, &stepscope::ui::MainWindow::loadFinished, &window, [&loaded] { loaded = true; });
    if (paths.size() == 2)
        window.openCompare(paths[0], paths[1]);
    else
        window.openPath(paths[0]);
    QElapsedTimer waited;
    waited.start();
    // Compare mode loads both runs without a loadFinished of the window: give it the time
    // `stepscope --screenshot` gives.
    const int limit = paths.size() == 2 ? 8000 : 120000;
    while ((paths.size() == 2 || !loaded) && waited.elapsed() < limit)
        QApplication::processEvents(QEventLoop::AllEvents, 100);
    settle(800);
    bool ok = save(window.grab(), prefix + QStringLiteral("-window.png"));
    for (QDockWidget *dock : window.findChildren<QDockWidget *>()) {
        if (dock->toggleViewAction() && !dock->toggleViewAction()->isEnabled())
            continue;
        dock->show();
        dock->raise();
        settle(400);
        const QString id = dock->objectName().isEmpty() ? dock->windowTitle() : dock->objectName();
        ok = save(dock->grab(), prefix + QLatin1Char('-') + id + QStringLiteral(".png")) && ok;
        // The same panel with room to breathe, torn off as a user would: a dock is often
        // short in the default layout.
        dock->setFloating(true);
        dock->resize(1200, 720);
        settle(500);
        ok =
            save(dock->grab(), prefix + QLatin1Char('-') + id + QStringLiteral("-large.png")) && ok;
        dock->setFloating(false);
        settle(200);
    }
    return ok ? 0 : 1;
}

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Entry point: headless commands (summary, dump, export, compare) or the GUI.

#include "cli.h"
#include "ui/mainwindow.h"
#include "ui/welcomepage.h"
#include "util/allocator.h"
#include "util/hugepages.h"
#include "windowargs.h"

#include <QApplication>
#include <QDir>
#include <QIcon>
#include <QPixmap>
#include <QStandardPaths>
#include <QStringList>
#include <QTimer>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace {

/// The bundled demo: installed under the data folders (<prefix>/share/stepscope/demo, also
/// beside a program not installed in a standard prefix), else the source tree's when the
/// program runs from its build folder.
QString demoDir()
{
    QString installed = QStandardPaths::locate(QStandardPaths::GenericDataLocation,
        QStringLiteral("stepscope/demo"), QStandardPaths::LocateDirectory);
    if (!installed.isEmpty())
        return installed;
    const QDir beside(
        QCoreApplication::applicationDirPath() + QStringLiteral("/../share/stepscope/demo"));
    if (beside.exists())
        return beside.canonicalPath();
    return QStringLiteral(STEPSCOPE_DEMO_DIR);
}

int runGui(int argc, char **argv)
{
    stepscope::app::chooseOffscreenWithoutDisplay();
    // QApplication takes Qt's own options (-platform, -style, -reverse, ...) out of the
    // arguments; the rest is ours.
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("StepScope"));
    QApplication::setOrganizationName(QStringLiteral("StepScope"));
    QApplication::setApplicationVersion(QStringLiteral(STEPSCOPE_VERSION));
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.stepscope.StepScope"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/stepscope/packaging/icons/stepscope.svg")));

    const stepscope::app::WindowArgs args =
        stepscope::app::parseWindowArgs(QCoreApplication::arguments());
    switch (args.action) {
    case stepscope::app::WindowArgs::Action::Error:
        std::fprintf(stderr, "stepscope: %s\n(stepscope --help lists the options)\n",
            args.message.toLocal8Bit().constData());
        return stepscope::app::ExitUsage;
    case stepscope::app::WindowArgs::Action::Help:
        std::fputs(stepscope::app::helpText().c_str(), stdout);
        return stepscope::app::ExitOk;
    case stepscope::app::WindowArgs::Action::Version:
        std::printf("stepscope %s\n", STEPSCOPE_VERSION);
        return stepscope::app::ExitOk;
    case stepscope::app::WindowArgs::Action::Run:
        break;
    }

    stepscope::ui::MainWindow window;
    window.welcomePage()->setDemoDir(demoDir());
    const QStringList &paths = args.paths;
    const QString screenshot = args.screenshot;
    const bool compare = paths.size() == 2;
    window.show();
    if (!screenshot.isEmpty()) {
        // Render once the load finished (or at once without a path), then exit.
        auto shoot = [&window, screenshot] {
            QTimer::singleShot(200, &window, [&window, screenshot] {
                const bool ok = window.grab().save(screenshot);
                std::fprintf(ok ? stdout : stderr, "%s %s\n", ok ? "wrote" : "cannot write",
                    screenshot.toLocal8Bit().constData());
                QApplication::exit(ok ? 0 : 1);
            });
        };
        if (paths.isEmpty())
            shoot();
        else if (compare)
            QObject::connect(&window, &stepscope::ui::MainWindow::compareFinished, &window, shoot);
        else
            QObject::connect(&window, &stepscope::ui::MainWindow::loadFinished, &window, shoot);
    }
    if (compare)
        window.openCompare(paths[0], paths[1], args.beforeRank, args.afterRank);
    else if (!paths.isEmpty()) {
        window.openPathWith(paths.front(), args.limits.loadOptions());
    }
    return QApplication::exec();
}

int run(int argc, char **argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    if (!args.empty() && (args[0] == "--version" || args[0] == "-v")) {
        std::printf("stepscope %s\n", STEPSCOPE_VERSION);
        return 0;
    }
    if (!args.empty() && (args[0] == "--help" || args[0] == "-h" || args[0] == "help")) {
        std::fputs(stepscope::app::helpText().c_str(), stdout);
        return 0;
    }
    if (!args.empty() && stepscope::app::isCommand(args[0]))
        return stepscope::app::runCommand(argc, argv, args);
    return runGui(argc, argv);
}

} // namespace

int main(int argc, char **argv)
{
    // Before anything else: may run this program again with huge pages for malloc.
    stepscope::util::runWithHugePages(argv);
    stepscope::util::returnLargeBlocks();
    // The top-level guard (docs/robustness.md): no exception ends the process with abort();
    // the commands handle their own errors, this only names what slipped through.
    try {
        return run(argc, argv);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "stepscope: internal error: %s\n", e.what());
    } catch (...) {
        std::fprintf(stderr, "stepscope: internal error (unknown exception)\n");
    }
    return 70; // EX_SOFTWARE
}

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "cliargs.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>

namespace stepscope::app {

/// What `stepscope [--screenshot FILE] [--compare] [--rank R] [PATH [AFTER]]` asks of the
/// window.
/// Qt's own options (-platform, -style, -reverse, ...) never reach here: QApplication takes
/// them out of the arguments first.
struct WindowArgs
{
    enum class Action { Run, Help, Version, Error };
    Action action = Action::Run;
    QStringList paths; ///< none, one (open) or two (compare BEFORE AFTER)
    QString screenshot; ///< save a picture of the window once loaded, then exit
    QString message; ///< the usage error (Action::Error), naming the option
    /// Compare: --rank R (both runs), --before-rank R / --after-rank R (over --rank); empty:
    /// the slowest rank of that run.
    std::optional<std::int32_t> beforeRank;
    std::optional<std::int32_t> afterRank;
    /// One profile: --ranks LIST (read only these ranks; empty: all) and --no-memory-check.
    LoadLimits limits;
};

/// Parses QCoreApplication::arguments() (the program name first) with QCommandLineParser.
WindowArgs parseWindowArgs(const QStringList &arguments);

/// The window's options as --help lists them.
QString windowOptionsHelp();

} // namespace stepscope::app

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <string>
#include <vector>

namespace stepscope::app {

/// Exit codes of the headless commands.
enum ExitCode { ExitOk = 0, ExitNothingLoaded = 1, ExitUsage = 2, ExitRegression = 3 };

std::string helpText();
bool isCommand(const std::string &word);
/// Runs `summary`, `dump`, `export`, `compare` with args[0] the command name (argc/argv for
/// the Qt application that export and compare need). Returns the exit code.
int runCommand(int argc, char **argv, const std::vector<std::string> &args);

/// Chooses the offscreen platform when there is no display, so a GUI or a headless export
/// does not abort inside Qt.
void chooseOffscreenWithoutDisplay();

} // namespace stepscope::app

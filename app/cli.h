// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <string>
#include <vector>

namespace stepscope::app {

/// Exit codes of the headless commands.
enum ExitCode { ExitOk = 0, ExitNothingLoaded = 1, ExitUsage = 2 };

std::string helpText();
bool isCommand(const std::string &word);
/// Runs `summary`, `dump`, ... with args[0] the command name. Returns the exit code.
int runCommand(const std::vector<std::string> &args);

} // namespace stepscope::app

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "cli.h"

#include "import/loader.h"

#include <cstdio>
#include <iostream>

namespace stepscope::app {

std::string helpText()
{
    return "Usage:\n"
           "  stepscope [PATH]                   open a profile folder or file in the window\n"
           "  stepscope BEFORE AFTER             compare two runs in the window\n"
           "  stepscope --compare BEFORE AFTER   the same\n"
           "  stepscope summary PATH [--json] [--config FILE]\n"
           "                                     print what loaded: format, ranks, steps,\n"
           "                                     breakdown, KPIs, diagnostics\n"
           "  stepscope dump PATH [--json]       print everything the model holds\n"
           "  stepscope export PATH --out DIR [--view timeline|steps|memory|communication|all]\n"
           "        [--step N] [--range START_US:END_US] [--size WxH] [--scale S]\n"
           "        [--format png|svg]           write pictures without a display\n"
           "  stepscope compare BEFORE AFTER --report DIR [--json]\n"
           "                                     write report.html and report.md\n"
           "  stepscope --version | --help\n"
           "\n"
           "Exit codes: 0 ok, 1 nothing usable loaded, 2 usage error.\n";
}

bool isCommand(const std::string &word)
{
    return word == "summary" || word == "dump" || word == "export" || word == "compare";
}

int runCommand(const std::vector<std::string> &args)
{
    if (args.size() < 2) {
        std::cerr << "stepscope " << args[0] << ": missing PATH\n" << helpText();
        return ExitUsage;
    }
    const std::string &command = args[0];
    if (command != "summary") {
        // TODO(#3, #8): dump, export and compare.
        std::cerr << "stepscope " << command << ": not available yet\n";
        return ExitUsage;
    }
    util::Progress progress;
    const import::LoadResult result = import::loadPath(args[1], progress);
    const model::Session &session = *result.session;
    std::cout << "format: " << (session.format.empty() ? "unknown" : session.format) << '\n'
              << "ranks: " << session.traces.size() << '\n'
              << "events: " << session.eventCount() << '\n';
    std::cout << session.report.toText();
    if (!session.hasContent()) {
        std::cerr << "stepscope summary: nothing usable loaded from " << args[1] << '\n';
        return ExitNothingLoaded;
    }
    return ExitOk;
}

} // namespace stepscope::app

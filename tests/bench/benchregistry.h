// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// A tiny registry of `stepscope-bench` subcommands. Each subcommand lives in its own .cpp
// and registers itself with STEPSCOPE_BENCH_COMMAND(name, function); benchmain.cpp
// dispatches on argv[1]. Benchmarks never fail CI (STYLE.md §7): they print figures.

#include <vector>

namespace stepscope::bench {

struct BenchCommand
{
    const char *name;
    int (*run)(int argc, char **argv); ///< argv[0] is the subcommand name
};

inline std::vector<BenchCommand> &benchCommands()
{
    static std::vector<BenchCommand> commands;
    return commands;
}

struct BenchRegistration
{
    BenchRegistration(const char *name, int (*run)(int, char **))
    {
        benchCommands().push_back({name, run});
    }
};

} // namespace stepscope::bench

#define STEPSCOPE_BENCH_COMMAND(name, function)                                                    \
    static const ::stepscope::bench::BenchRegistration stepscopeBenchRegistration_##function(      \
        name, function)

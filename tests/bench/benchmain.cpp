// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "benchregistry.h"
#include "util/allocator.h"
#include "util/hugepages.h"

#include <cstdio>
#include <cstring>

int main(int argc, char **argv)
{
    // As the application does (app/main.cpp): the figures are the ones a user gets.
    stepscope::util::runWithHugePages(argv);
    stepscope::util::returnLargeBlocks();
    using stepscope::bench::benchCommands;
    if (argc >= 2) {
        for (const auto &command : benchCommands()) {
            if (std::strcmp(command.name, argv[1]) == 0)
                return command.run(argc - 1, argv + 1);
        }
    }
    std::fprintf(stderr, "usage: stepscope-bench COMMAND [ARGS]\ncommands:");
    for (const auto &command : benchCommands())
        std::fprintf(stderr, " %s", command.name);
    std::fprintf(stderr, "\n");
    return 2;
}

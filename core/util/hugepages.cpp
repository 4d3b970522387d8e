// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "hugepages.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#if defined(__linux__) && defined(__GLIBC__)
#include <gnu/libc-version.h>
#include <unistd.h>
#endif

namespace stepscope::util {

void runWithHugePages(char **argv)
{
#if defined(__linux__) && defined(__GLIBC__)
    if (argv == nullptr || argv[0] == nullptr)
        return;
    if (const char *off = std::getenv("STEPSCOPE_HUGEPAGES"); off && std::strcmp(off, "0") == 0)
        return;
    const char *tunables = std::getenv("GLIBC_TUNABLES");
    const std::string existing = tunables ? tunables : "";
    if (existing.find("glibc.malloc.hugetlb") != std::string::npos)
        return;
    // The tunable exists from glibc 2.35 on; older ones would ignore it.
    const char *version = gnu_get_libc_version();
    char *end = nullptr;
    const long major = std::strtol(version, &end, 10);
    const long minor = end && *end == '.' ? std::strtol(end + 1, nullptr, 10) : 0;
    if (major < 2 || (major == 2 && minor < 35))
        return;
    std::ifstream mode("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string line;
    if (!std::getline(mode, line) || line.find("[never]") != std::string::npos)
        return;
    const std::string value =
        existing.empty() ? "glibc.malloc.hugetlb=1" : existing + ":glibc.malloc.hugetlb=1";
    if (setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0)
        return;
    execv("/proc/self/exe", argv);
    // exec failed: run on without huge pages (and without the tunable, so that a child
    // process does not see a setting this one does not have).
    if (tunables)
        setenv("GLIBC_TUNABLES", existing.c_str(), 1);
    else
        unsetenv("GLIBC_TUNABLES");
#else
    (void)argv;
#endif
}

} // namespace stepscope::util

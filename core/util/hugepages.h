// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

namespace stepscope::util {

/// Runs this program again, once, with glibc's `glibc.malloc.hugetlb=1` tunable, so that
/// malloc asks the kernel to back its large blocks with transparent huge pages: one page fault
/// per 2 MiB instead of per 4 KiB. Loading a 1 GB trace touches about 1 GB of fresh memory;
/// on a virtual machine where a fault costs ~10 us that was half the load
/// (docs/performance-log.md).
///
/// Call first thing in main(). Returns (and changes nothing) when the program should run as it
/// is: not Linux with glibc 2.35 or later, transparent huge pages set to "never", the tunable
/// already set (so also after the re-run), STEPSCOPE_HUGEPAGES=0, or exec failing.
void runWithHugePages(char **argv);

} // namespace stepscope::util

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "allocator.h"

#include <cstdlib> // defines __GLIBC__ with glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace stepscope::util {

void returnLargeBlocks()
{
#if defined(__GLIBC__)
    constexpr int Threshold = 1 << 20;
    mallopt(M_MMAP_THRESHOLD, Threshold);
#endif
}

} // namespace stepscope::util

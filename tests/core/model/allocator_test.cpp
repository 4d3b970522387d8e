// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "util/allocator.h"

#include <gtest/gtest.h>

#include <cstdlib>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define STEPSCOPE_OWN_MALLOC 1 // the sanitizers bring their own malloc
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define STEPSCOPE_OWN_MALLOC 1
#endif
#endif

// After returnLargeBlocks(), a block of 1 MiB or more is mapped apart (and unmapped when
// freed) even once a larger block was freed: with glibc's default the threshold would have
// risen to that block's size and the next smaller one would come from the heap, where it
// stays when freed.
TEST(Allocator, LargeBlocksStayMappedAfterALargerOneIsFreed)
{
#if defined(__GLIBC__) && !defined(STEPSCOPE_OWN_MALLOC)
    stepscope::util::returnLargeBlocks();
    constexpr std::size_t MiB = std::size_t {1} << 20;
    void *larger = std::malloc(24 * MiB);
    ASSERT_NE(larger, nullptr);
    std::free(larger);
    const std::size_t mappedBefore = mallinfo2().hblkhd;
    void *block = std::malloc(4 * MiB);
    ASSERT_NE(block, nullptr);
    EXPECT_GE(mallinfo2().hblkhd, mappedBefore + 4 * MiB);
    std::free(block);
    EXPECT_EQ(mallinfo2().hblkhd, mappedBefore);
#else
    GTEST_SKIP() << "glibc's malloc only";
#endif
}

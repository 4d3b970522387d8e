// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "util/allocator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <new>
#include <string>
#include <vector>

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

namespace {

/// The VmFlags of the mapping that holds `address` in /proc/self/smaps ("" when not found).
std::string mappingFlags(const void *address)
{
    const auto at = reinterpret_cast<std::uintptr_t>(address);
    std::ifstream smaps("/proc/self/smaps");
    bool inside = false;
    for (std::string line; std::getline(smaps, line);) {
        unsigned long long begin = 0;
        unsigned long long end = 0;
        // A mapping's first line: "begin-end perms offset dev inode path".
        const std::size_t dash = line.find('-');
        if (dash != std::string::npos && dash < 17 && line.find(' ') > dash
            && std::sscanf(line.c_str(), "%llx-%llx", &begin, &end) == 2) {
            inside = at >= begin && at < end;
            continue;
        }
        if (inside && line.rfind("VmFlags:", 0) == 0)
            return line.substr(8);
    }
    return {};
}

} // namespace

// After returnLargeBlocks(), `new` gives a block of 1 MiB or more on a 2 MiB boundary (a huge
// page can then cover it from its first byte), and its last 2 MiB page, when it fills less
// than three quarters of it, is advised against huge pages (smaps: "nh"), so that at most
// 512 KiB it does not use can become resident. The whole block can be written.
TEST(Allocator, LargeNewBlocksStartOnAHugePageBoundary)
{
    if (!stepscope::util::placesLargeBlocks())
        GTEST_SKIP() << "glibc on Linux without a sanitizer only";
    stepscope::util::returnLargeBlocks();
    constexpr std::size_t MiB = std::size_t {1} << 20;
    std::vector<char> block(3 * MiB + 5, 'x');
    const auto start = reinterpret_cast<std::uintptr_t>(block.data());
    EXPECT_EQ(start % (2 * MiB), 0u);
    EXPECT_EQ(std::count(block.begin(), block.end(), 'x'), static_cast<long>(block.size()));
    const std::string head = mappingFlags(block.data());
    const std::string tail = mappingFlags(block.data() + 2 * MiB);
    ASSERT_FALSE(head.empty());
    ASSERT_FALSE(tail.empty());
    EXPECT_EQ(head.find(" nh"), std::string::npos) << head;
    EXPECT_NE(tail.find(" nh"), std::string::npos) << tail;
    // A block of whole 2 MiB pages has no partial page to advise, nor has one that fills
    // three quarters of its last page.
    std::vector<char> whole(4 * MiB, 'y');
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(whole.data()) % (2 * MiB), 0u);
    EXPECT_EQ(mappingFlags(whole.data() + 2 * MiB).find(" nh"), std::string::npos);
    std::vector<char> nearlyWhole(2 * MiB + 3 * MiB / 2, 'z');
    EXPECT_EQ(mappingFlags(nearlyWhole.data() + 2 * MiB).find(" nh"), std::string::npos);
    std::vector<char> justShort(2 * MiB + 3 * MiB / 2 - 1, 'z');
    EXPECT_NE(mappingFlags(justShort.data() + 2 * MiB).find(" nh"), std::string::npos);
}

// Out of memory, `new` calls the new handler and, once there is none, throws bad_alloc; the
// nothrow form gives null.
TEST(Allocator, NewFailsAsTheStandardSays)
{
    if (!stepscope::util::placesLargeBlocks())
        GTEST_SKIP() << "glibc on Linux without a sanitizer only";
    stepscope::util::returnLargeBlocks();
    constexpr std::size_t TooMuch = std::size_t {1} << 46; // 64 TiB: no mapping that large
    static int handlerCalls = 0;
    handlerCalls = 0;
    std::set_new_handler([] {
        ++handlerCalls;
        std::set_new_handler(nullptr);
    });
    EXPECT_THROW(::operator delete(::operator new(TooMuch)), std::bad_alloc);
    EXPECT_EQ(handlerCalls, 1);
    EXPECT_EQ(::operator new(TooMuch, std::nothrow), nullptr);
    // Past the last size a whole number of 2 MiB pages can hold (not known to the compiler).
    volatile std::size_t nearMax = ~std::size_t {0} - 10;
    EXPECT_EQ(::operator new[](nearMax, std::nothrow), nullptr);
}

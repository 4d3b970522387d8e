// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "allocator.h"

#include <cstdlib> // defines __GLIBC__ with glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <atomic>
#include <cstddef>
#include <new>

// A sanitizer brings its own operator new and delete (and checks that they pair up): those stay.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define STEPSCOPE_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)                            \
    || __has_feature(memory_sanitizer)
#define STEPSCOPE_SANITIZED 1
#endif
#endif

#if defined(__GLIBC__) && defined(__linux__) && !defined(STEPSCOPE_SANITIZED)
#define STEPSCOPE_PLACE_LARGE_BLOCKS 1
#endif

namespace stepscope::util {

#if defined(__GLIBC__)
namespace {

constexpr std::size_t LargeBlock = std::size_t {1} << 20; // glibc's mmap threshold, set below
#if defined(STEPSCOPE_PLACE_LARGE_BLOCKS)
constexpr std::size_t HugePage = std::size_t {2} << 20;
std::atomic<bool> g_placeLarge {false};
#endif

} // namespace
#endif

void returnLargeBlocks()
{
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, static_cast<int>(LargeBlock));
#endif
#if defined(STEPSCOPE_PLACE_LARGE_BLOCKS)
    g_placeLarge.store(true, std::memory_order_relaxed);
#endif
}

bool placesLargeBlocks()
{
#if defined(STEPSCOPE_PLACE_LARGE_BLOCKS)
    return true;
#else
    return false;
#endif
}

} // namespace stepscope::util

#if defined(STEPSCOPE_PLACE_LARGE_BLOCKS)

// The replaceable allocation functions ([new.delete]): every `new` of the program comes here,
// and goes to malloc as before until returnLargeBlocks() is called. From then on a block of
// 1 MiB or more comes from aligned_alloc, which glibc serves with mmap (it is over the
// threshold) and frees with free() as any other block. The delete functions only call free(),
// as libstdc++'s do.

namespace {

/// Null when out of memory.
void *allocate(std::size_t n) noexcept
{
    using stepscope::util::HugePage;
    if (n >= stepscope::util::LargeBlock && n <= ~std::size_t {0} - HugePage
        && stepscope::util::g_placeLarge.load(std::memory_order_relaxed)) {
        // Whole 2 MiB pages from a 2 MiB boundary. The last one, when the block fills less
        // than three quarters of it, takes no huge page: it is faulted in 4 KiB at a time as
        // it is used, so the block holds at most 512 KiB of resident memory it does not use.
        // (A huge page on every last page added about 1 MiB per block: the loaded model of the
        // 1 GB trace took 25 MB more, its peak 25 MB more.) Should madvise fail, that page may
        // be huge, nothing else changes.
        const std::size_t whole = (n + HugePage - 1) & ~(HugePage - 1);
        const std::size_t lastFill = n - (whole - HugePage);
        void *block = std::aligned_alloc(HugePage, whole);
        if (block && lastFill * 4 < HugePage * 3)
            madvise(static_cast<char *>(block) + (whole - HugePage), HugePage, MADV_NOHUGEPAGE);
        return block;
    }
    return std::malloc(n != 0 ? n : 1);
}

void *allocateOrThrow(std::size_t n)
{
    for (;;) {
        if (void *p = allocate(n))
            return p;
        const std::new_handler handler = std::get_new_handler();
        if (!handler)
            throw std::bad_alloc();
        handler();
    }
}

} // namespace

void *operator new(std::size_t n)
{
    return allocateOrThrow(n);
}

void *operator new[](std::size_t n)
{
    return allocateOrThrow(n);
}

void *operator new(std::size_t n, const std::nothrow_t &) noexcept
{
    try {
        return allocateOrThrow(n);
    } catch (...) {
        return nullptr;
    }
}

void *operator new[](std::size_t n, const std::nothrow_t &) noexcept
{
    try {
        return allocateOrThrow(n);
    } catch (...) {
        return nullptr;
    }
}

void operator delete(void *p) noexcept
{
    std::free(p);
}

void operator delete[](void *p) noexcept
{
    std::free(p);
}

void operator delete(void *p, std::size_t) noexcept
{
    std::free(p);
}

void operator delete[](void *p, std::size_t) noexcept
{
    std::free(p);
}

void operator delete(void *p, const std::nothrow_t &) noexcept
{
    std::free(p);
}

void operator delete[](void *p, const std::nothrow_t &) noexcept
{
    std::free(p);
}

#endif

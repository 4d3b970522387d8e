// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace stepscope::util {

/// Runs `a` on this thread and `b` on a thread of its own, and returns when both are done.
/// An exception from either is rethrown here once both have ended (`a`'s when both threw);
/// no thread outlives the call. With `parallel` false both run here in order, and an
/// exception from `a` leaves before `b` starts.
template <class A, class B> void runBoth(bool parallel, A &&a, B &&b)
{
    if (!parallel) {
        std::forward<A>(a)();
        std::forward<B>(b)();
        return;
    }
    std::exception_ptr failedB;
    std::thread other([&b, &failedB] {
        try {
            std::forward<B>(b)();
        } catch (...) {
            failedB = std::current_exception();
        }
    });
    std::exception_ptr failedA;
    try {
        std::forward<A>(a)();
    } catch (...) {
        failedA = std::current_exception();
    }
    other.join();
    if (failedA)
        std::rethrow_exception(failedA);
    if (failedB)
        std::rethrow_exception(failedB);
}

/// Calls `f(i)` for every i in [0, n) on up to `threads` threads (0: the machine's cores, at
/// most four), this thread among them, and returns when every call is done. Calls for
/// different i may run at once, in any order. The first exception stops the calls not yet
/// begun and is rethrown here once every thread has ended; no thread outlives the call.
/// When no thread can be started, the calls run on this one.
template <class F> void parallelFor(std::size_t n, unsigned threads, F &&f)
{
    if (threads == 0)
        threads = std::min(4u, std::max(1u, std::thread::hardware_concurrency()));
    const std::size_t workers = std::min<std::size_t>(threads, n);
    std::atomic<std::size_t> next {0};
    std::atomic<bool> stop {false};
    std::exception_ptr failure;
    std::mutex failureMutex;
    auto work = [&] {
        for (std::size_t i = next++; i < n && !stop; i = next++) {
            try {
                f(i);
            } catch (...) {
                std::lock_guard<std::mutex> lock(failureMutex);
                if (!failure)
                    failure = std::current_exception();
                stop = true;
            }
        }
    };
    std::vector<std::thread> pool;
    try {
        for (std::size_t w = 1; w < workers; ++w)
            pool.emplace_back(work);
    } catch (...) {
        // No thread (or no memory) to be had: the threads started and this one share the calls.
    }
    work();
    for (std::thread &t : pool)
        t.join();
    if (failure)
        std::rethrow_exception(failure);
}

} // namespace stepscope::util

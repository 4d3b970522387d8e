// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <exception>
#include <thread>
#include <utility>

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

} // namespace stepscope::util

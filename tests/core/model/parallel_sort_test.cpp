// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// util::stableSortNearlySorted (the insertion sort that hands over to std::stable_sort) and
// util::runBoth (two jobs, one on a thread of its own) and util::parallelFor.
#include "util/nearsort.h"
#include "util/parallel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

using namespace stepscope;

namespace {

using Item = std::pair<int, int>; // (key, position in the input)

bool byKey(const Item &a, const Item &b)
{
    return a.first < b.first;
}

std::vector<Item> items(const std::vector<int> &keys)
{
    std::vector<Item> v;
    for (std::size_t i = 0; i < keys.size(); ++i)
        v.emplace_back(keys[i], static_cast<int>(i));
    return v;
}

void expectStableSort(const std::vector<int> &keys, std::size_t movesPerElement)
{
    std::vector<Item> expected = items(keys);
    std::stable_sort(expected.begin(), expected.end(), byKey);
    std::vector<Item> got = items(keys);
    util::stableSortNearlySorted(got, byKey, movesPerElement);
    EXPECT_EQ(got, expected) << "moves per element " << movesPerElement;
}

} // namespace

TEST(StableSortNearlySorted, GivesExactlyTheStableSortWhateverTheInput)
{
    std::mt19937 rng(7);
    for (int round = 0; round < 200; ++round) {
        const std::size_t n = rng() % 300;
        std::vector<int> keys(n);
        // Few distinct keys, so that equal ones must keep their order.
        const int range = 1 + static_cast<int>(rng() % 20);
        switch (round % 4) {
        case 0: // nearly sorted: ascending with local swaps
            for (std::size_t i = 0; i < n; ++i)
                keys[i] = static_cast<int>(i) / 3;
            for (std::size_t i = 0; i + 3 < n; i += 2)
                if (rng() % 2)
                    std::swap(keys[i], keys[i + 1 + rng() % 3]);
            break;
        case 1: // descending: every insertion is long, the budget runs out
            for (std::size_t i = 0; i < n; ++i)
                keys[i] = static_cast<int>(n - i) % range;
            break;
        default: // random
            for (int &k : keys)
                k = static_cast<int>(rng() % static_cast<unsigned>(range));
        }
        for (const std::size_t moves : {std::size_t {0}, std::size_t {1}, std::size_t {8}, n + 1})
            expectStableSort(keys, moves);
    }
}

TEST(RunBoth, RunsBothJobsAndRethrowsTheirFailures)
{
    for (const bool parallel : {false, true}) {
        std::atomic<int> ran {0};
        util::runBoth(
            parallel, [&] { ran += 1; }, [&] { ran += 10; });
        EXPECT_EQ(ran.load(), 11);

        // A failure in either job surfaces once both have ended; the first job's wins.
        ran = 0;
        EXPECT_THROW(util::runBoth(
                         parallel, [&] { ran += 1; },
                         [&] {
                             ran += 10;
                             throw std::runtime_error("b");
                         }),
            std::runtime_error);
        EXPECT_EQ(ran.load(), 11);
        try {
            util::runBoth(
                parallel, [] { throw std::logic_error("a"); },
                [&] {
                    ran += 100;
                    throw std::runtime_error("b");
                });
            ADD_FAILURE() << "no exception";
        } catch (const std::logic_error &e) {
            EXPECT_STREQ(e.what(), "a");
        }
        // On one thread the jobs run in order, so the first one's failure skips the second.
        EXPECT_EQ(ran.load(), parallel ? 111 : 11);
    }
}

TEST(ParallelFor, CallsEachIndexOnceAndRethrowsTheFirstFailure)
{
    for (const unsigned threads : {0u, 1u, 3u, 8u}) {
        std::vector<std::atomic<int>> calls(1000);
        util::parallelFor(calls.size(), threads, [&](std::size_t i) { ++calls[i]; });
        for (std::size_t i = 0; i < calls.size(); ++i)
            ASSERT_EQ(calls[i].load(), 1) << "index " << i << ", threads " << threads;
        util::parallelFor(0, threads, [](std::size_t) { ADD_FAILURE() << "no index to call"; });

        // A failure leaves once every thread has ended; on one thread, in index order, it
        // stops every call after it.
        std::atomic<int> after {0};
        EXPECT_THROW(util::parallelFor(1000, threads,
                         [&](std::size_t i) {
                             if (i == 10)
                                 throw std::runtime_error("index 10");
                             if (i > 10)
                                 ++after;
                         }),
            std::runtime_error);
        if (threads == 1) {
            EXPECT_EQ(after.load(), 0);
        }
    }
}

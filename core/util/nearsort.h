// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace stepscope::util {

/// std::stable_sort(v, less), first tried as an insertion sort: profilers write events
/// almost in time order (an instant stamped before the call it is written after), so each
/// element moves a few places, in one sweep that walks memory in order. Once the moves pass
/// `movesPerElement` per element the input is not nearly sorted and std::stable_sort does the
/// rest. The result is exactly the stable sort's either way: an insertion moves an element
/// only past greater ones, so equal elements keep the order they came in.
template <class T, class Less>
void stableSortNearlySorted(std::vector<T> &v, Less less, std::size_t movesPerElement = 8)
{
    const std::size_t n = v.size();
    const std::size_t budget = n * movesPerElement;
    std::size_t moves = 0;
    for (std::size_t i = 1; i < n; ++i) {
        if (!less(v[i], v[i - 1]))
            continue;
        T x = std::move(v[i]);
        std::size_t j = i;
        do {
            v[j] = std::move(v[j - 1]);
            --j;
        } while (j > 0 && less(x, v[j - 1]));
        v[j] = std::move(x);
        moves += i - j;
        if (moves > budget) {
            std::stable_sort(v.begin(), v.end(), less);
            return;
        }
    }
}

} // namespace stepscope::util

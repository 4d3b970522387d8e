// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>

namespace stepscope::ui {

/// A label every `n` items so labels `labelPx` apart never overlap items `itemPx` apart: n
/// is the first of 1, 2, 5, 10, 20, 50, ... that leaves room.
inline int labelStride(double itemPx, int labelPx)
{
    if (itemPx >= labelPx)
        return 1;
    const double need = labelPx / std::max(itemPx, 1e-9);
    int stride = 1;
    for (;;) {
        for (int m : {1, 2, 5}) {
            if (stride * m >= need)
                return stride * m;
        }
        stride *= 10;
    }
}

/// The items [first, last) of `count` that pixel `p` of `px` covers when there are at least as
/// many items as pixels: each pixel the items from p * count / px on.
inline std::pair<int, int> itemsUnderPixel(int p, int count, int px)
{
    const auto first = static_cast<int>(static_cast<std::int64_t>(p) * count / std::max(1, px));
    const auto last = static_cast<int>(static_cast<std::int64_t>(p + 1) * count / std::max(1, px));
    return {first, std::max(first + 1, last)};
}

/// The pixel of `px` that item `i` of `count` falls under (the inverse of itemsUnderPixel).
inline int pixelOfItem(int i, int count, int px)
{
    return static_cast<int>(static_cast<std::int64_t>(i) * px / std::max(1, count));
}

} // namespace stepscope::ui

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "sparselabels.h"

#include <cmath>

namespace stepscope::ui {

SparseLabels sparseCategoryLabels(const QStringList &categories, double slotPx, double labelPx)
{
    SparseLabels out;
    const auto n = static_cast<int>(categories.size());
    if (n == 0 || slotPx <= 0)
        return out;
    // 1, 2, 5, 10, 20, 50, ...: the first stride whose room holds a label.
    int every = 1;
    for (int i = 0; every < n && every * slotPx < labelPx; ++i)
        every = (i % 3 == 0 ? 2 : i % 3 == 1 ? 5 : 10) * static_cast<int>(std::pow(10, i / 3));
    out.every = every;
    const double half = every / 2.0;
    // The first category whose interval starts inside the axis.
    const int lowest = static_cast<int>(std::ceil(half - 0.5));
    int first = lowest;
    for (int i = lowest; i < lowest + every && i < n; ++i) {
        bool ok = false;
        const qlonglong v = categories[i].toLongLong(&ok);
        if (ok && v % every == 0) {
            first = i;
            break;
        }
    }
    for (int c = first; c + half <= n - 0.5; c += every)
        out.labels.push_back({c, categories[c], c - half, c + half});
    return out;
}

} // namespace stepscope::ui

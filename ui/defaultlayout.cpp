// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "defaultlayout.h"

#include <algorithm>
#include <cmath>

namespace stepscope::ui::defaultlayout {

QSize windowSize(const QSize &available)
{
    if (!available.isValid() || available.isEmpty())
        return PreferredWindowSize;
    const auto fit = [](int preferred, int room, int floor) {
        if (preferred <= room)
            return preferred;
        return std::max(floor, static_cast<int>(std::lround(room * 0.94)));
    };
    return {fit(PreferredWindowSize.width(), available.width(), 640),
        fit(PreferredWindowSize.height(), available.height(), 480)};
}

int bottomDockHeight(int windowHeight, int panelNeed)
{
    const auto low = static_cast<int>(std::lround(windowHeight * MinDockShare));
    const auto high = static_cast<int>(std::lround(windowHeight * MaxDockShare));
    return std::clamp(panelNeed, low, std::max(low, high));
}

} // namespace stepscope::ui::defaultlayout

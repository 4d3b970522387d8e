// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Core text to Qt text, one way everywhere: core strings are UTF-8 (invalid bytes were
// replaced on import), durations are formatted by core so the window, the CLI and the report
// print the same digits.

#include "analysis/units.h"

#include <QString>

#include <cstdint>
#include <string_view>

namespace stepscope::ui {

inline QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

/// `analysis::formatDuration` ("1.25 ms", DESIGN.md "Numbers") as a QString.
inline QString durText(std::int64_t ns)
{
    return qs(analysis::formatDuration(ns));
}

/// `analysis::formatTimePoint` ("77.000123456 s"): an event's start, exact to the ns.
inline QString timeText(std::int64_t ns)
{
    return qs(analysis::formatTimePoint(ns));
}

} // namespace stepscope::ui

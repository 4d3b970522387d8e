// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace stepscope::analysis {

/// The integer value of a top-level `"key": 123` (or `"key": "123"`) in an event's compact
/// args JSON, without building a DOM: the analysis reads a few keys (correlation, External id)
/// of hundreds of thousands of events. Nothing when absent or not an integer.
std::optional<std::int64_t> argInt(std::string_view argsJson, std::string_view key);

} // namespace stepscope::analysis

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <cstdint>
#include <string_view>

namespace stepscope::import::detect {

/// The rank of `"distributedInfo": {... "rank": N ...}` in the head of a Kineto trace, -1
/// when there is none (or N is beyond int32). The first `"rank"` inside the braces followed
/// by `: digits` counts, as the regex `"distributedInfo"\s*:\s*\{[^}]*?"rank"\s*:\s*(\d+)`
/// found it before; plain string search, since std::regex_search over the MiB detection
/// reads took milliseconds per file.
std::int32_t kinetoRank(std::string_view head);

} // namespace stepscope::import::detect

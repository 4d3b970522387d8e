// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <cstdint>
#include <string>

namespace stepscope::analysis {

/// Number formats shared by the CLI, the panels and the reports (DESIGN.md "Numbers and
/// text"): durations in adaptive units with three significant digits ("148 ms", "87.3 µs"),
/// shares with one decimal ("21.0 %"), memory in binary units ("6.17 GiB").
std::string formatDuration(std::int64_t ns);
std::string formatShare(double fraction);
std::string formatBytes(std::int64_t bytes);
/// Three significant digits, no unit ("148", "87.3", "0.512").
std::string formatSignificant(double value);
/// Four significant digits in printf's %g style ("0.01234", "1.5e+06"), for the evidence
/// texts of findings; "nan", "inf", "-inf" for non-finite values.
std::string formatShort(double value);

} // namespace stepscope::analysis

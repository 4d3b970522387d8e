// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace stepscope::analysis {

/// Before / after / delta / % of one metric with the direction that counts as better: the
/// row type of every comparison table (compare.h, losscompare.h).
enum class Better : std::uint8_t { Lower, Higher, Neither };
enum class Verdict : std::uint8_t {
    Improved, ///< moved in the better direction by more than the tolerance
    Regressed, ///< moved in the worse direction by more than the tolerance
    Unchanged, ///< within the tolerance
    Unknown, ///< a side is missing, or the metric changed and has no better direction
};
std::string_view verdictName(Verdict v);

struct DeltaRow
{
    std::string key; ///< stable key ("step_time_mean_us", "segment.data_loading", ...)
    std::string label; ///< what the table shows
    std::string unit; ///< "us", "fraction", "samples/s", ... as in the inputs
    std::optional<double> before;
    std::optional<double> after;
    std::optional<double> delta; ///< after - before
    std::optional<double> percent; ///< 100 * delta / |before|; empty when before is 0
    Better better = Better::Neither;
    Verdict verdict = Verdict::Unknown;
};

/// A row from two values. `tolerance` is relative to |before| (default 0.5 %): smaller
/// changes are Unchanged, whatever the better direction. With before == 0 any change beyond
/// 1e-12 decides the verdict. A larger change of a metric with no better direction (compute
/// time) is Unknown.
DeltaRow makeDeltaRow(std::string key, std::string label, std::string unit,
    std::optional<double> before, std::optional<double> after, Better better,
    double tolerance = 0.005);

/// The verdict as the tables write it: verdictName, except "changed" for a row with both
/// values whose metric has no better direction (compute 80 -> 95 ms is neither).
std::string_view verdictText(const DeltaRow &row);

} // namespace stepscope::analysis

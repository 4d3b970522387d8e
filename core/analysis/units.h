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
/// ns as the µs of `summary --json` and the reports' figures (a double, not rounded).
inline double nsToUs(std::int64_t ns)
{
    return static_cast<double>(ns) / 1000.0;
}
/// A time point (an event's start from the trace's first event), exact to the ns in the
/// largest unit with an integer part, trailing zeros dropped: "77.000123456 s", "100 ms",
/// "72.312 µs", "512 ns". Three significant digits would say "77.0 s" for every kernel of a
/// 300 µs window late in a long trace.
std::string formatTimePoint(std::int64_t ns);
std::string formatShare(double fraction);
/// A relative difference, three significant digits: "0.0015 %", "12.3 %" (a share's one
/// decimal would read a tiny divergence as "0.0 %").
std::string formatRelative(double fraction);
std::string formatBytes(std::int64_t bytes);
/// A size the profiler wrote in MB: Ascend's "Transit Size(MB)" is bytes / 10^6 (its sizes
/// times 10^6 are whole bytes, as the collective table counts them), shown in binary units as
/// every other size ("20.1 MiB", "40 B"); "0 B" for none.
std::string formatMegabytes(double mb);
/// A rate the profiler wrote in GB/s, in decimal units as written; small rates step down
/// ("45.6 MB/s") instead of reading "0.0456 GB/s"; "–" for none.
std::string formatBandwidth(double gbPerSecond);
/// Three significant digits, no unit ("148", "87.3", "0.512").
std::string formatSignificant(double value);
/// Four significant digits in printf's %g style ("0.01234", "87.35"), whole numbers from 10^4
/// to 10^12 rounded without an exponent ("12480", not "1.248e+04"), for the evidence texts
/// of findings; "nan", "inf", "-inf" for non-finite values.
std::string formatShort(double value);

} // namespace stepscope::analysis

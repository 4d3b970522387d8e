// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope::model {

enum class Severity : std::uint8_t { Info, Warning, Error };
std::string_view severityName(Severity s);

/// One problem found while loading, with where it was found.
///
/// `file` is relative to the opened folder (or the file name when a file was opened).
/// `line`/`column` are 1-based and 0 when unknown; `offset` is a byte offset into the
/// (decompressed) file and -1 when unknown. `count` says how often the same problem
/// (same severity, file and message) occurred; the position is the first occurrence's.
struct Diagnostic
{
    Severity severity = Severity::Warning;
    std::string file;
    std::int64_t line = 0;
    std::int64_t column = 0;
    std::int64_t offset = -1;
    std::string message;
    std::uint64_t count = 1;
};

/// Collects diagnostics of one load, merging repeats so a million bad rows give one line.
///
/// Invariant: no two entries share (severity, file, message); entries keep the order of
/// their first occurrence. Not thread-safe: parallel workers fill their own report and
/// merge() them in a fixed order so output is deterministic.
class LoadReport
{
public:
    void add(Diagnostic d);
    void add(Severity severity, std::string file, std::string message, std::int64_t line = 0,
        std::int64_t offset = -1);
    void merge(const LoadReport &other);

    const std::vector<Diagnostic> &diagnostics() const { return m_diagnostics; }
    bool empty() const { return m_diagnostics.empty(); }
    /// Sum of counts with the given severity.
    std::uint64_t count(Severity severity) const;
    /// "file:line: message" or "file@offset: message" lines, one per diagnostic.
    std::string toText() const;

private:
    std::vector<Diagnostic> m_diagnostics;
};

} // namespace stepscope::model

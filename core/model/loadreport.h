// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
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
    /// (severity, file, message) → index: a thousand-rank load merges as many reports.
    std::unordered_map<std::string, std::size_t> m_index;
};

/// `message` with each number (a run of digits with the '.' or ',' inside it) written '#':
/// what the diagnostics of several ranks or files that say the same thing have in common.
std::string messageShape(std::string_view message);

/// Diagnostics of one severity whose messages have one shape (messageShape): the same
/// problem found in many files or ranks.
struct DiagnosticGroup
{
    std::vector<std::size_t> members; ///< indices into the diagnostics, in their order
    std::uint64_t count = 0; ///< the members' counts summed
    std::size_t files = 0; ///< distinct files among the members
};

/// The diagnostics in groups, in the order of each group's first member. Only groups of more
/// than `keepApart` members are kept together; the others come back one diagnostic per group,
/// where that diagnostic stands, so a two-rank load reads as before and a thousand-rank load
/// says a problem of every rank once.
std::vector<DiagnosticGroup> groupDiagnostics(
    const std::vector<Diagnostic> &diagnostics, std::size_t keepApart = 3);

/// " (and N more like it, in F files)" after a group's first member ("in F files" when its
/// members name more than one file); empty for a diagnostic on its own.
std::string groupSuffix(const DiagnosticGroup &group);

/// Where and what, as LoadReport::toText() writes one diagnostic (no newline).
std::string diagnosticLine(const Diagnostic &d);

/// LoadReport::toText() with each group of groupDiagnostics() on one line: its first member
/// followed by "(and N more like it, in F files)". Every line starts with `indent`.
std::string groupedText(const std::vector<Diagnostic> &diagnostics, std::string_view indent = {});

} // namespace stepscope::model

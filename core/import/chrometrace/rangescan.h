// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "chunk.h"
#include "eventscanner.h"

#include <cstdint>
#include <limits>
#include <vector>

namespace stepscope::import::chrometrace {

class ByteSource;

/// What scanning one byte range of the event array found, besides the chunk's events.
struct RangeScan
{
    static constexpr std::uint64_t NoStart = std::numeric_limits<std::uint64_t>::max();
    /// Where the scan began: the exact start it was given, or the event start it guessed;
    /// NoStart when guessing found no event start in the range.
    std::uint64_t start = NoStart;
    /// The first element (or ']') at or past the range's end: where the next range begins.
    /// Meaningless when `arrayEnded` or `fileEnded`.
    std::uint64_t next = 0;
    bool arrayEnded = false; ///< the ']' closing the event array is at `arrayEnd`
    std::uint64_t arrayEnd = 0;
    bool fileEnded = false; ///< the file ended inside the array (truncated)
    std::uint64_t junkElements = 0; ///< array elements that are not objects, skipped
    std::uint64_t junkBytes = 0;
    /// The first elements skipped, as EventScanner words them (at most MaxElementReports).
    std::vector<EventScanner::Problem> elementProblems;
    /// Truncation (at most one), after every element problem in file order.
    std::vector<EventScanner::Problem> problems;
    static constexpr std::size_t MaxElementReports = 100;
};

/// Cuts the elements of a plain trace file's event array that start in [begin, end) into
/// `chunk`, reading the file at offsets (ByteSource::readAt), so that workers cut their own
/// ranges at once instead of one thread scanning the whole file.
///
/// Exact mode (`exactStart` set): the scan starts at `exactStart`, a position between two
/// elements (or just after the array's '['), and takes every element that starts before
/// `end`, each event found by its closing brace as EventScanner finds it.
///
/// Guess mode (`exactStart` = NoStart): the scan does not know whether `begin` lies in a
/// string or an event. It guesses the first event start at or past `begin`: a '{' after
/// '}' and ',' (blanks allowed between). The guess is checked by the caller: it is right
/// when it equals the previous range's `next`; else the range is scanned again in exact
/// mode. A wrong guess (a '},{' inside a string, an element that is not an object) only
/// costs that second scan. No element start in the range: `start` is NoStart.
///
/// Memory: the range, a short look-back and the tail of the last event.
RangeScan scanRange(const ByteSource &file, std::uint64_t begin, std::uint64_t end,
    std::uint64_t exactStart, Chunk &chunk);

} // namespace stepscope::import::chrometrace

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "ui/palette.h"
#include "ui/timeline/timelinemodel.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace stepscope::ui::compare {

/// A piece of a delta strip, in ns relative to the aligned step's start on both sides.
struct DeltaPiece
{
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    /// +1: "after" spends this time in the strip's category and "before" does not (red);
    /// -1: "before" does and "after" does not (green).
    int sign = 0;
};

/// One delta strip: where the aligned steps differ in one category (or in the step itself).
///
/// Invariants: pieces sorted by start, disjoint, each inside [0, max step length);
/// sum of +1 pieces − sum of −1 pieces == afterNs − beforeNs.
struct DeltaStrip
{
    std::optional<analysis::SegmentKind> kind; ///< empty: the whole step (wall time)
    QString label;
    std::int64_t beforeNs = 0; ///< time of the category in "before"'s aligned step
    std::int64_t afterNs = 0;
    std::vector<DeltaPiece> pieces;

    std::int64_t moreNs() const; ///< total of +1 pieces
    std::int64_t lessNs() const; ///< total of −1 pieces
    std::int64_t deltaNs() const { return afterNs - beforeNs; }
};

/// The delta strips of an aligned pair of steps: first the step itself (red where "after"
/// runs longer), then one strip per step-lane category present on either side, in
/// analysis::SegmentKind order. `beforeSegments` / `afterSegments` are a timeline's step lane
/// (session-relative, sorted, disjoint); only the parts inside [start, end) of each side's
/// step count, shifted so that the step starts at 0.
///
/// Algorithm: per category, both sides' intervals are clipped and shifted, then merged in one
/// sweep over their sorted boundaries; a stretch covered by one side only becomes a piece.
std::vector<DeltaStrip> computeDeltaStrips(
    const std::vector<timeline::StepLaneSegment> &beforeSegments, std::int64_t beforeStartNs,
    std::int64_t beforeEndNs, const std::vector<timeline::StepLaneSegment> &afterSegments,
    std::int64_t afterStartNs, std::int64_t afterEndNs);

} // namespace stepscope::ui::compare

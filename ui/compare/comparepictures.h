// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "comparedata.h"
#include "ui/export/imageexport.h"

#include <memory>

namespace stepscope::ui::compare {

/// The pictures of compare mode for the report and `stepscope compare --report`, painted
/// headless with the same builders as the screen (timeline::paintTimeline for both runs,
/// buildStripGeometry for the delta strips, paintLossOverlay, the BarChart adapter).
/// A QApplication must exist (fonts, widgets); call on the GUI thread.

/// "before" above "after", both fitted to the aligned step of `selection` (rulers from each
/// step's start), the delta strips between them (and the overlay lanes when `overlay`).
PaintFunction alignedTimelinesPainter(std::shared_ptr<const CompareData> data,
    const CompareSelection &selection = {}, bool overlay = true);

/// Paired step times: one group per pair (before, after) on the pairing of `selection`.
PaintFunction pairedStepBarsPainter(
    std::shared_ptr<const CompareData> data, const CompareSelection &selection = {});

/// Memory by category, before and after, for the comparison's ranks (memorybars.h); an empty
/// picture when neither run records memory.
PaintFunction memoryBarsPainter(std::shared_ptr<const CompareData> data);

/// Both loss curves on one step axis with the divergence figures and NaN/inf markers.
PaintFunction lossOverlayPainter(LossOverlay overlay);

} // namespace stepscope::ui::compare

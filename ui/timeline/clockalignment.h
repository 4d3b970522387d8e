// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "model/session.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace stepscope::ui::timeline {

/// How one rank's clock relates to the reference rank's (issue 11 item 5): the offset core
/// estimated from matched collective ends (analysis::estimateClockOffsets) and its evidence.
struct RankClock
{
    std::int32_t rank = 0;
    std::int64_t offsetNs = 0; ///< add to the rank's own times to align it (0 when unknown)
    bool known = false; ///< evidence strong enough to apply (analysis::ClockOffset::known)
    bool reference = false; ///< the rank every other rank is aligned to
    std::int64_t matched = 0; ///< collectives matched with the reference rank
    std::int64_t spreadNs = 0; ///< median absolute deviation of the matched end differences
    bool applied = false; ///< the lanes of this model are shifted by offsetNs
};

/// One RankClock per trace in session order; empty for a session of fewer than two traces
/// (nothing to align). `applied` is false everywhere: the model decides.
std::vector<RankClock> estimateRankClocks(const model::Session &session);

/// The clock paragraph of a rank header's tooltip: the offset, whether it is applied, the
/// evidence (matched collectives, spread) and, when it is not applied, why.
QString clockNote(const RankClock &clock, std::int32_t referenceRank);

} // namespace stepscope::ui::timeline

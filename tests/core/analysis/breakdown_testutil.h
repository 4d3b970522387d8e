// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Shared by the breakdown tests: the identities every StepBreakdown keeps (breakdown.h).

#include "analysis/breakdown.h"

#include <gtest/gtest.h>

namespace stepscope::testsupport {

/// preparing + compute + exposed + bubble + free is the step, and free is its four parts.
inline void expectIdentity(const analysis::StepBreakdown &s)
{
    EXPECT_EQ(
        s.preparingNs + s.computeNs + s.commExposedNs + s.bubbleNs + s.freeNs, s.durationNs());
    EXPECT_EQ(s.hostWaitNs + s.dataLoadingNs + s.launchGapNs + s.otherIdleNs, s.freeNs);
}

} // namespace stepscope::testsupport

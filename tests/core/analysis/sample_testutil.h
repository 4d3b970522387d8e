// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Loading a sample of tests/data for the analysis tests, as the CLI loads a path.
#pragma once

#include "import/loader.h"
#include "util/progress.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace stepscope::testsupport {

/// The session of `relative` (a path under tests/data); a failed expectation and nullptr when
/// nothing loads.
inline std::shared_ptr<const model::Session> loadSample(const std::string &relative)
{
    util::Progress progress;
    auto r = import::loadPath(std::string(STEPSCOPE_TEST_DATA) + "/" + relative, progress);
    EXPECT_TRUE(r.session) << relative;
    return r.session;
}

} // namespace stepscope::testsupport

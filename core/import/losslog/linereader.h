// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "logbuilder.h"
#include "losslog.h"

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace stepscope::import::losslog {

/// Recognises the records of one console-log format in cleaned lines (see LineCleaner).
/// Every reader sees every line, so a file mixing record kinds (Megatron-DeepSpeed with
/// DeepSpeed lines, a MindSpore script running DeepSpeed) keeps all of them as separate
/// series. Readers never throw; a line that looks like a record but does not parse is
/// recorded with LogBuilder::log().addIssue().
class LineReader
{
public:
    virtual ~LineReader() = default;
    /// Returns true when `line` was a record of this format.
    virtual bool feed(
        std::string_view line, std::int32_t rank, std::int64_t lineNo, LogBuilder &builder) = 0;
    /// Called once after the last line (readers that need the whole file emit here).
    virtual void finish(LogBuilder &builder) { (void)builder; }
};

/// Detection priorities (docs/formats.md §10.1 table order; lower wins the producer name).
enum ProducerPriority : int {
    PriorityMegatron = 4,
    PriorityGrpo = 5,
    PriorityMindFormers = 6,
    PriorityDeepSpeed = 7,
    PriorityMindSpore = 8,
    PriorityTorchtitan = 9,
    PriorityNanoGpt = 10,
    PriorityUser = 100,
};

std::unique_ptr<LineReader> makeMegatronReader();
std::unique_ptr<LineReader> makeGrpoReader();
std::unique_ptr<LineReader> makeMindFormersReader();
std::unique_ptr<LineReader> makeDeepSpeedReader();
std::unique_ptr<LineReader> makeMindSporeReader();
std::unique_ptr<LineReader> makeTorchtitanReader(); ///< torchtitan and nanoGPT/llm.c lines
/// Reads `pattern` (see losslog.h UserPattern).
std::unique_ptr<LineReader> makeUserPatternReader(UserPattern pattern);

} // namespace stepscope::import::losslog

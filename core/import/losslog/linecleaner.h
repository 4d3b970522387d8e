// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace stepscope::import::losslog {

/// One console line made readable: NUL bytes removed, the text after the last carriage
/// return kept (spinners, tqdm bars; a trailing CR of CRLF is just dropped), ANSI escape
/// sequences removed, then leading per-process prefixes stripped: Ray actor prefixes
/// `(main_task pid=241472) `, torchrun `[rank0]:` / `[default0]: `. The rank of the
/// prefix is kept.
struct CleanLine
{
    std::string_view text; ///< valid until the next clean() on the same LineCleaner
    std::int32_t rank = -1; ///< from a `[rankN]:` / `[defaultN]:` prefix, else -1
    bool hadControl = false; ///< NUL, CR or ANSI bytes were removed
};

/// Reuses its buffer between lines; not thread-safe.
class LineCleaner
{
public:
    CleanLine clean(std::string_view raw);

private:
    std::string m_buffer;
};

} // namespace stepscope::import::losslog

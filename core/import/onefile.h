// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// One file read outside a folder load, for tests, fuzzers and tools: the readers' own entry
// points take an ImportContext and a TraceBuilder that the folder loader owns.

#include "import/importcontext.h"
#include "model/loadreport.h"
#include "model/trace.h"
#include "model/tracebuilder.h"

#include <exception>
#include <filesystem>
#include <string>

namespace stepscope::import {

/// The finished trace, the diagnostics, and whether the reader found something usable.
struct OneFileResult
{
    model::Trace trace;
    model::LoadReport report;
    bool ok = false;
};

/// Runs `read(ctx, builder)` (returning bool) with the file's folder as the root and a private
/// report; an exception the reader lets through becomes an error diagnostic on `file`.
template <typename Read>
OneFileResult readOneFile(const std::filesystem::path &file, bool keepArgs, Read &&read)
{
    OneFileResult result;
    ImportContext ctx;
    ctx.root = file.parent_path();
    ctx.report = &result.report;
    ctx.options.keepArgs = keepArgs;
    model::TraceBuilder b;
    try {
        result.ok = read(static_cast<const ImportContext &>(ctx), b);
    } catch (const std::exception &e) {
        ctx.error(file, std::string("reading failed: ") + e.what());
    }
    result.trace = b.finish().trace;
    return result;
}

} // namespace stepscope::import

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <vector>

namespace stepscope::fuzz {

/// How one fuzz input reaches a reader.
enum class Mode {
    Folder, ///< the input is written to `path` below a temporary folder; loadPath(folder)
    FolderGzip, ///< as Folder, but the input is gzip-compressed first (the reader gunzips)
    TrainingLog, ///< the input is the file `path`; readTrainingLog(file)
    /// As Folder, loaded twice: by the one-thread stream and by two workers cutting byte
    /// ranges (1-64 bytes picked by the first input byte, at least 1/128 of the input); any
    /// difference aborts.
    FolderRanges,
};

/// One libFuzzer target: a reader reached through the public entry point the CLI uses, with
/// the file named and placed where detection expects it.
struct Target
{
    const char *name; ///< STEPSCOPE_FUZZ_TARGET value, corpus folder name
    Mode mode;
    const char *path; ///< where the input goes, relative to the temporary folder
    const char *seeds; ///< `|`-separated globs below tests/data (gzip seeds are gunzipped)
    const char *companion = nullptr; ///< an empty file beside it that detection needs
};

const std::vector<Target> &targets();

} // namespace stepscope::fuzz

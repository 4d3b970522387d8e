// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The single files of the detection (§5-§7, §11, §12 of docs/formats.md): a file opened alone
// or found in a folder goes into the Detection's list for what it holds.
#pragma once

#include "detect.h"

#include <filesystem>
#include <string>

namespace stepscope::import::detect {

/// The worker name of a trace file: its name less `.pt.trace.json(.gz)` and a Kineto
/// timestamp ("worker0" of worker0.1712345678901.pt.trace.json).
std::string kinetoWorker(const std::filesystem::path &file);

bool isJsonName(const std::string &name);

/// Adds `file`, which sniffFile found to be `kind`, to `d`'s list for it (a Kineto file with
/// its rank, a generic trace, a memory export, an SQLite export). Returns the format that
/// list makes, Unknown when `kind` goes in none.
Format addFile(const std::filesystem::path &file, FileKind kind, Detection &d);

/// The files of `dir` (and of its folders down to `depth` levels) into `d`'s lists, by what
/// they hold whatever their names: a name only saves the look at the content. Special files
/// named like traces go to `d.skipped` with the reason.
void scanFiles(const std::filesystem::path &dir, int depth, Detection &d);

/// The profiles in the folders below `dir`, down to `depth` levels, when `dir`'s own files
/// were read (they come first): each goes to `d.skipped`, so none is left out unsaid.
void noteProfilesBelow(const std::filesystem::path &dir, int depth, Detection &d);

/// Generic trace-event files count only when the folder holds no PyTorch trace.
void settleGeneric(Detection &d);

/// Trace, memory, log, Nsight Systems and Ascend DB files that are byte copies of an earlier
/// one in the lists (a file copied next to itself) are read once: each copy goes to `d.skipped`,
/// naming the file it copies. Only files of one size are compared, by their ends and then in full.
/// Links to one file were already taken once.
void dropCopies(Detection &d);

} // namespace stepscope::import::detect

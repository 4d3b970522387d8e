// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

namespace stepscope::util {

/// Has malloc give every block of 1 MiB or more back to the kernel as soon as it is freed, and
/// has `operator new` place such blocks on whole 2 MiB pages.
///
/// glibc serves such blocks with mmap, but raises that threshold to the largest block freed so
/// far (up to 32 MiB): after the first staged column of a load is freed, the next ones come
/// from the heap and stay there once freed, so the process holds the load's staging beside the
/// model it builds. Loading the generated 1 GB Kineto trace peaked at 538 MB with glibc's
/// default and at 409 MB with this (docs/performance-log.md). A fixed threshold also ends the
/// adjustment, as mallopt(3) says.
///
/// Such a block starts wherever mmap put it, so a transparent huge page (which must lie on a
/// 2 MiB boundary) covers only its middle: the rest, about 2 MiB per block, is faulted in 4 KiB
/// at a time. On this project's virtual machine that is about 12 us per page, and a load of the
/// 1 GB trace took 55 000 such faults. From here on `operator new` asks for blocks of 1 MiB or
/// more on a 2 MiB boundary, so that huge pages cover all of them but a last page they fill
/// less than three quarters of (that one is faulted in 4 KiB pages as it is used, so a block
/// holds at most 512 KiB it does not use). Builds with a sanitizer keep their own
/// `operator new`.
///
/// Call first thing in main(); nothing without glibc.
void returnLargeBlocks();

/// Whether returnLargeBlocks() places large blocks on 2 MiB boundaries in this build (glibc on
/// Linux, no sanitizer).
bool placesLargeBlocks();

} // namespace stepscope::util

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

namespace stepscope::util {

/// Has malloc give every block of 1 MiB or more back to the kernel as soon as it is freed.
///
/// glibc serves such blocks with mmap, but raises that threshold to the largest block freed so
/// far (up to 32 MiB): after the first staged column of a load is freed, the next ones come
/// from the heap and stay there once freed, so the process holds the load's staging beside the
/// model it builds. Loading the generated 1 GB Kineto trace peaked at 538 MB with glibc's
/// default and at 409 MB with this (docs/performance.md). A fixed threshold also ends the
/// adjustment, as mallopt(3) says. Call first thing in main(); nothing without glibc.
void returnLargeBlocks();

} // namespace stepscope::util

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

namespace stepscope::util {

/// Gives a container's storage back now. `v = {}` does not: for std::vector and std::string
/// the braces pick operator=(std::initializer_list), which empties the container but keeps its
/// capacity until the container is destroyed, so a loader that "freed" a staged column that way
/// still held it at the peak of the load.
template <class Container> void release(Container &c) noexcept
{
    Container().swap(c);
}

} // namespace stepscope::util

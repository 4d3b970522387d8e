// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// The naming rule every reader of CUDA/ROCm device activity shares (Kineto traces, Nsight
// Systems exports): collective and point-to-point kernels of NCCL and RCCL (`ncclKernel_*`,
// `ncclDevKernel_*`, docs/formats.md §5.6 and §12.3) are communication, every other kernel is
// compute. One rule, so the step breakdown of a Kineto run and of the same run under nsys
// agree.

#include "model/category.h"
#include "util/text.h"

#include <string_view>

namespace stepscope::import::cuda {

/// True for NCCL/RCCL kernel names.
inline bool isCollectiveKernel(std::string_view name)
{
    return util::startsWith(name, "nccl") || util::startsWith(name, "rccl");
}

/// Communication for NCCL/RCCL kernels, else Compute.
inline model::Category kernelCategory(std::string_view name)
{
    return isCollectiveKernel(name) ? model::Category::Communication : model::Category::Compute;
}

} // namespace stepscope::import::cuda

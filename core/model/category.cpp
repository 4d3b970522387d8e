// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "category.h"

#include <array>

namespace stepscope::model {

namespace {
constexpr std::array<std::string_view, CategoryCount> CategoryNames = {
    "compute",
    "communication",
    "memcpy",
    "memset",
    "host_op",
    "runtime",
    "data_loading",
    "python",
    "annotation",
    "other",
};
constexpr std::array<std::string_view, TrackKindCount> TrackKindNames = {
    "host_thread",
    "device_stream",
    "communication_group",
    "counter",
    "synthetic",
};
} // namespace

std::string_view categoryName(Category c)
{
    return CategoryNames.at(static_cast<std::size_t>(c));
}

std::optional<Category> categoryFromName(std::string_view name)
{
    for (std::size_t i = 0; i < CategoryNames.size(); ++i) {
        if (CategoryNames[i] == name)
            return static_cast<Category>(i);
    }
    return std::nullopt;
}

std::string_view trackKindName(TrackKind k)
{
    return TrackKindNames.at(static_cast<std::size_t>(k));
}

std::optional<TrackKind> trackKindFromName(std::string_view name)
{
    for (std::size_t i = 0; i < TrackKindNames.size(); ++i) {
        if (TrackKindNames[i] == name)
            return static_cast<TrackKind>(i);
    }
    return std::nullopt;
}

} // namespace stepscope::model

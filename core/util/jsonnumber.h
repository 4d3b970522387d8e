// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <cmath>

namespace stepscope::util {

/// A double as a JSON value: the number, or the string "nan", "inf" or "-inf" (JSON has no
/// non-finite numbers). `Json` is nlohmann::json or nlohmann::ordered_json; header-only, so
/// the model library itself needs no JSON dependency.
template <class Json> Json jsonNumber(double v)
{
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    return v;
}

} // namespace stepscope::util

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <string>

namespace stepscope::util {

/// The text of `j` as every JSON output prints it (`summary --json`, `dump --json`, the
/// training-log dump): names and messages come from other machines' files and are often not
/// UTF-8 (a Latin-1 folder name), so each byte that is not valid UTF-8 is replaced by U+FFFD
/// (nlohmann's error_handler_t::replace) instead of throwing; the output is always valid
/// JSON. `indent` < 0: compact. `Json` is nlohmann::json; header-only, so the model library
/// itself needs no JSON dependency.
template <class Json> std::string jsonText(const Json &j, int indent = -1)
{
    return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

} // namespace stepscope::util

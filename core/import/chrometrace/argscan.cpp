// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "argscan.h"

#include <cctype>
#include <string>

namespace stepscope::import::chrometrace {

std::optional<std::int64_t> argInt(std::string_view argsJson, std::string_view key)
{
    std::string needle;
    needle.reserve(key.size() + 2);
    needle += '"';
    needle += key;
    needle += '"';
    std::size_t pos = 0;
    while ((pos = argsJson.find(needle, pos)) != std::string_view::npos) {
        std::size_t p = pos + needle.size();
        pos = p;
        while (p < argsJson.size() && std::isspace(static_cast<unsigned char>(argsJson[p])))
            ++p;
        if (p >= argsJson.size() || argsJson[p] != ':')
            continue; // the text was a value, not a key
        ++p;
        while (p < argsJson.size() && std::isspace(static_cast<unsigned char>(argsJson[p])))
            ++p;
        if (p < argsJson.size() && argsJson[p] == '"')
            ++p;
        bool negative = false;
        if (p < argsJson.size() && argsJson[p] == '-') {
            negative = true;
            ++p;
        }
        std::int64_t v = 0;
        std::size_t digits = 0;
        while (p < argsJson.size() && std::isdigit(static_cast<unsigned char>(argsJson[p]))) {
            if (v > (INT64_MAX - 9) / 10)
                return std::nullopt;
            v = v * 10 + (argsJson[p] - '0');
            ++p;
            ++digits;
        }
        if (digits == 0)
            return std::nullopt;
        // The number must end here: a fraction or an exponent is not an integer.
        if (p < argsJson.size() && argsJson[p] != ',' && argsJson[p] != '}' && argsJson[p] != '"'
            && !std::isspace(static_cast<unsigned char>(argsJson[p])))
            return std::nullopt;
        return negative ? -v : v;
    }
    return std::nullopt;
}

} // namespace stepscope::import::chrometrace

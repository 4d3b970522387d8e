// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "profdevice.h"

#include "import/detect/filetext.h"

#include <nlohmann/json.hpp>

namespace stepscope::import::cann {

std::int32_t profDeviceRank(const std::filesystem::path &deviceDir, std::int32_t fallback)
{
    std::error_code ec;
    for (std::filesystem::directory_iterator it(deviceDir, ec), end; !ec && it != end;
         it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.rfind("info.json.", 0) != 0 || name.find(".done") != std::string::npos)
            continue;
        const auto text = detect::readFileText(it->path(), 1 << 20);
        if (!text)
            continue;
        // allow_exceptions = false: a broken info file just means "no rank_id here".
        const nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
        if (j.is_object() && j.contains("rank_id") && j["rank_id"].is_number_integer()) {
            const auto rank = j["rank_id"].get<std::int64_t>();
            if (rank >= 0 && rank < 4294967295LL && rank <= INT32_MAX)
                return static_cast<std::int32_t>(rank);
        }
    }
    return fallback;
}

} // namespace stepscope::import::cann

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "jsonfile.h"

#include "util/decimal.h"
#include "util/regularfile.h"

#include <fstream>

namespace stepscope::import::ascend {

std::optional<nlohmann::json> readJsonFile(
    const std::filesystem::path &path, const ImportContext &ctx)
{
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ctx.progress) {
        ctx.progress->checkCancel();
        ctx.progress->setStage("Reading " + ctx.relative(path));
    }
    std::ifstream in;
    if (std::string why; !util::openRegular(in, path, &why)) {
        ctx.error(path, "cannot open the file for reading: " + why);
        return std::nullopt;
    }
    std::optional<nlohmann::json> doc;
    try {
        doc = nlohmann::json::parse(in);
    } catch (const nlohmann::json::parse_error &e) {
        ctx.error(path, std::string("not valid JSON, the file was not loaded: ") + e.what(), 0,
            static_cast<std::int64_t>(e.byte));
    } catch (const std::exception &e) {
        ctx.error(path, std::string("cannot read the JSON file: ") + e.what());
    }
    if (ctx.progress && !ec)
        ctx.progress->advance(static_cast<std::uint64_t>(size));
    return doc;
}

std::optional<double> jsonNumber(const nlohmann::json &object, std::string_view key)
{
    if (!object.is_object())
        return std::nullopt;
    const auto it = object.find(std::string(key));
    if (it == object.end())
        return std::nullopt;
    if (it->is_number())
        return it->get<double>();
    if (it->is_string())
        return util::parseDouble(it->get_ref<const std::string &>());
    return std::nullopt;
}

std::string jsonText(const nlohmann::json &object, std::string_view key)
{
    if (!object.is_object())
        return {};
    const auto it = object.find(std::string(key));
    if (it == object.end())
        return {};
    if (it->is_string())
        return it->get<std::string>();
    if (it->is_number_integer())
        return std::to_string(it->get<std::int64_t>());
    if (it->is_number() || it->is_boolean())
        return it->dump();
    return {};
}

} // namespace stepscope::import::ascend

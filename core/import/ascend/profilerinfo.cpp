// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "profilerinfo.h"

#include "jsonfile.h"
#include "util/decimal.h"

#include <fstream>

namespace stepscope::import::ascend {

namespace {

using Json = nlohmann::json;

std::string scalarText(const Json &v)
{
    if (v.is_string())
        return v.get<std::string>();
    if (v.is_array()) {
        std::string s;
        for (const Json &e : v) {
            if (!s.empty())
                s += ", ";
            s += scalarText(e);
        }
        return s;
    }
    return v.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::optional<std::int32_t> rankFromFileName(const std::filesystem::path &path)
{
    const std::string stem = path.stem().string(); // profiler_info_3
    const std::size_t us = stem.rfind('_');
    if (us == std::string::npos)
        return std::nullopt;
    const auto n = util::parseInt(std::string_view(stem).substr(us + 1));
    if (!n || *n < 0 || *n > 0x7fffffff)
        return std::nullopt;
    return static_cast<std::int32_t>(*n);
}

/// `rank_id` when it is a rank; -1 (not distributed) and anything else give nullopt.
std::optional<std::int32_t> rankFromContent(const Json &doc)
{
    const auto it = doc.find("rank_id");
    if (it == doc.end() || !it->is_number_integer())
        return std::nullopt;
    const auto id = it->get<std::int64_t>();
    if (id < 0 || id > 0x7fffffff)
        return std::nullopt;
    return static_cast<std::int32_t>(id);
}

} // namespace

std::optional<std::filesystem::path> findProfilerInfo(const std::filesystem::path &rankDir)
{
    std::error_code ec;
    std::optional<std::filesystem::path> found;
    for (std::filesystem::directory_iterator it(rankDir, ec), end; !ec && it != end;
         it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.rfind("profiler_info", 0) == 0 && it->path().extension() == ".json"
            && it->is_regular_file(ec) && (!found || it->path() < *found))
            found = it->path();
    }
    return found;
}

std::optional<std::int32_t> profilerInfoRank(const std::filesystem::path &path)
{
    // The file is a few KB; one far larger is not a profiler_info, and its name decides.
    constexpr std::uintmax_t MaxBytes = 1U << 20U;
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (!ec && size <= MaxBytes) {
        std::ifstream in(path, std::ios::binary);
        const Json doc = Json::parse(in, nullptr, false);
        if (doc.is_object())
            if (const auto rank = rankFromContent(doc))
                return rank;
    }
    return rankFromFileName(path);
}

std::optional<std::int32_t> readProfilerInfo(
    const std::filesystem::path &path, const ImportContext &ctx, model::RunMetadata &metadata)
{
    const std::optional<Json> doc = readJsonFile(path, ctx);
    if (!doc)
        return rankFromFileName(path);
    if (!doc->is_object()) {
        ctx.error(path, "the top level must be an object");
        return rankFromFileName(path);
    }
    metadata.format = "ascend";
    std::optional<std::int32_t> rank = rankFromContent(*doc);
    const std::optional<std::int32_t> named = rankFromFileName(path);
    const auto rankIt = doc->find("rank_id");
    if (!rank && rankIt != doc->end()
        && !(rankIt->is_number_integer() && rankIt->get<std::int64_t>() == -1))
        ctx.warn(path, "`rank_id` must be a non-negative integer; using the file name");
    // A renamed or copied file: the profiler's own rank_id is what its cluster tables use.
    if (rank && named && *rank != *named)
        ctx.warn(path,
            "`rank_id` is " + std::to_string(*rank) + " but the file is named for rank "
                + std::to_string(*named) + "; shown as rank " + std::to_string(*rank)
                + ", the profiler's rank_id");
    if (!rank)
        rank = named;
    if (rank)
        metadata.rank = *rank;

    const Json config = doc->value("config", Json::object());
    const Json common =
        config.is_object() ? config.value("common_config", Json::object()) : Json::object();
    const Json experimental =
        config.is_object() ? config.value("experimental_config", Json::object()) : Json::object();
    if (experimental.is_object()) {
        const std::string level = jsonText(experimental, "_profiler_level");
        if (!level.empty())
            metadata.profilerLevel = level;
        for (const auto &[key, value] : experimental.items())
            if (!value.is_null() && key != "_profiler_level")
                metadata.extra["profiler." + (key.rfind('_', 0) == 0 ? key.substr(1) : key)] =
                    scalarText(value);
    }
    if (common.is_object())
        for (const auto &[key, value] : common.items())
            if (!value.is_null())
                metadata.extra["profiler." + key] = scalarText(value);
    for (const char *block : {"start_info", "end_info"}) {
        const auto it = doc->find(block);
        if (it != doc->end() && it->is_object())
            for (const auto &[key, value] : it->items())
                metadata.extra[std::string(block) + "." + key] = scalarText(value);
    }
    return rank;
}

bool readProfilerMetadata(const std::filesystem::path &path, const ImportContext &ctx,
    model::RunMetadata &metadata, std::vector<model::ParallelGroup> &groups)
{
    const std::optional<Json> doc = readJsonFile(path, ctx);
    if (!doc)
        return false;
    if (!doc->is_object()) {
        ctx.error(path, "the top level must be an object");
        return false;
    }
    const auto env = doc->find("ENV_VARIABLES");
    if (env != doc->end() && env->is_object())
        for (const auto &[key, value] : env->items())
            if (value.is_string() && !value.get_ref<const std::string &>().empty())
                metadata.extra["env." + key] = value.get<std::string>();
    const auto dist = doc->find("distributed_args");
    if (dist != doc->end() && dist->is_object()) {
        for (const auto &[key, value] : dist->items())
            metadata.extra["distributed." + key] = scalarText(value);
        const std::optional<double> world = jsonNumber(*dist, "world_size");
        if (world && *world > 0 && *world < 2147483647.0)
            metadata.worldSize = static_cast<std::int32_t>(*world);
    }
    const auto info = doc->find("parallel_group_info");
    if (info != doc->end() && info->is_object()) {
        for (const auto &[key, value] : info->items()) {
            model::ParallelGroup g;
            g.name = key;
            g.kind = jsonText(value, "group_name");
            const auto ranks = value.is_object() ? value.find("global_ranks") : value.end();
            bool ok = value.is_object() && ranks != value.end() && ranks->is_array();
            if (ok)
                for (const Json &r : *ranks) {
                    if (!r.is_number_integer() || r.get<std::int64_t>() < 0
                        || r.get<std::int64_t>() > 0x7fffffff) {
                        ok = false;
                        break;
                    }
                    g.ranks.push_back(static_cast<std::int32_t>(r.get<std::int64_t>()));
                }
            if (!ok) {
                ctx.warn(path,
                    "parallel_group_info `" + key
                        + "` needs `global_ranks`, a list of ranks; skipped");
                continue;
            }
            groups.push_back(std::move(g));
        }
    }
    return true;
}

} // namespace stepscope::import::ascend

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "jsonfile.h"

#include "util/decimal.h"
#include "util/regularfile.h"

#include <fstream>

namespace stepscope::import::ascend {

namespace {

/// Opens `path` as a JSON reader starts: checks for cancel, names the stage, and reports a
/// file that cannot be opened. Its size (0 when unknown), or nullopt when it did not open.
std::optional<std::uint64_t> openJson(
    const std::filesystem::path &path, const ImportContext &ctx, std::ifstream &in)
{
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ctx.progress) {
        ctx.progress->checkCancel();
        ctx.progress->setStage("Reading " + ctx.relative(path));
    }
    if (std::string why; !util::openRegular(in, path, &why)) {
        ctx.error(path, "cannot open the file for reading: " + why);
        return std::nullopt;
    }
    return ec ? 0 : static_cast<std::uint64_t>(size);
}

} // namespace

std::optional<nlohmann::json> readJsonFile(
    const std::filesystem::path &path, const ImportContext &ctx)
{
    std::ifstream in;
    const std::optional<std::uint64_t> size = openJson(path, ctx, in);
    if (!size)
        return std::nullopt;
    std::optional<nlohmann::json> doc;
    try {
        doc = nlohmann::json::parse(in);
    } catch (const nlohmann::json::parse_error &e) {
        ctx.error(path, std::string("not valid JSON, the file was not loaded: ") + e.what(), 0,
            static_cast<std::int64_t>(e.byte));
    } catch (const std::exception &e) {
        ctx.error(path, std::string("cannot read the JSON file: ") + e.what());
    }
    if (ctx.progress)
        ctx.progress->advance(*size);
    return doc;
}

bool streamJsonFile(const std::filesystem::path &path, const ImportContext &ctx, std::size_t depth,
    const JsonVisitor &visit)
{
    using Json = nlohmann::json;
    using Event = Json::parse_event_t;
    std::ifstream in;
    const std::optional<std::uint64_t> size = openJson(path, ctx, in);
    if (!size)
        return false;
    constexpr std::uint64_t ProgressEvery = 1024; // values handed over between progress calls
    std::vector<std::string> keys; // keys[d - 1]: the key at depth d on the current path
    std::uint64_t handed = 0;
    std::uint64_t reported = 0; // bytes given to progress
    const Json null;
    const auto hand = [&](std::size_t level, const Json &value) {
        keys.resize(level);
        visit(keys, value);
        if (ctx.progress && ++handed % ProgressEvery == 0) {
            ctx.progress->checkCancel();
            const std::streamoff at = in.tellg();
            if (at > 0 && static_cast<std::uint64_t>(at) > reported) {
                ctx.progress->advance(static_cast<std::uint64_t>(at) - reported);
                reported = static_cast<std::uint64_t>(at);
            }
        }
    };
    // nlohmann's parser builds each value and asks whether to keep it: the values `depth`
    // keys deep are handed over and dropped, and so are the emptied objects above them. An
    // array above that depth is dropped at its start, unread.
    const auto callback = [&](int d, Event event, Json &parsed) -> bool {
        const auto level = static_cast<std::size_t>(d);
        switch (event) {
        case Event::key:
            if (level <= depth) {
                keys.resize(level);
                keys.back() = parsed.get_ref<const std::string &>();
            }
            return true;
        case Event::object_start:
            return true;
        case Event::array_start:
            if (level >= depth)
                return true;
            hand(level, null);
            return false;
        case Event::object_end:
        case Event::array_end:
            if (level > depth)
                return true;
            if (level == depth)
                hand(level, parsed);
            return false;
        case Event::value:
            if (level > depth)
                return true;
            hand(level, level == depth ? parsed : null);
            return false;
        }
        return true;
    };
    bool ok = true;
    try {
        const Json rest = Json::parse(in, callback);
    } catch (const Json::parse_error &e) {
        ok = handed > 0;
        ctx.error(path,
            (handed == 0 ? std::string("not valid JSON, the file was not loaded: ")
                         : "not valid JSON: reading stopped at byte " + std::to_string(e.byte)
                        + "; what came before it was kept: ")
                + e.what(),
            0, static_cast<std::int64_t>(e.byte));
    } catch (const Json::exception &e) {
        ok = handed > 0;
        ctx.error(path, std::string("cannot read the JSON file: ") + e.what());
    }
    if (ctx.progress && *size > reported)
        ctx.progress->advance(*size - reported);
    return ok;
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

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "outputtimeline.h"

#include "import/csv/csvfield.h"
#include "import/csv/csvreader.h"
#include "util/decimal.h"

#include <nlohmann/json.hpp>

#include <map>

namespace stepscope::import::mindspore {

namespace {

namespace fs = std::filesystem;

bool isCommunication(std::string_view name)
{
    for (std::string_view key : {"AllReduce", "AllGather", "ReduceScatter", "Broadcast", "AllToAll",
             "Send", "Receive", "Recv", "Hcom", "hcom"}) {
        if (name.find(key) != std::string_view::npos)
            return true;
    }
    return false;
}

} // namespace

std::int64_t outputTimelineFirstStartNs(const fs::path &path)
{
    csv::CsvReader reader(path);
    if (!reader.isOpen() || !reader.readHeader())
        return -1;
    const int startCol = reader.column("start_time(ms)");
    while (reader.next()) {
        const csv::ExactValue v = csv::parseScaled(reader.field(startCol), 6);
        if (v.status == csv::ValueStatus::Ok)
            return v.value;
    }
    return -1;
}

std::size_t readOutputTimelineData(
    const fs::path &path, const ImportContext &ctx, std::int32_t rank, model::TraceBuilder &out)
{
    if (ctx.progress != nullptr)
        ctx.progress->setStage("Reading " + ctx.relative(path));
    csv::CsvReader reader(path, &ctx);
    if (!reader.isOpen() || !reader.readHeader())
        return 0;
    const int nameCol = reader.column("op_name");
    const int streamCol = reader.column("stream_id");
    const int startCol = reader.column("start_time(ms)");
    const int durCol = reader.column("duration(ms)");
    if (nameCol < 0 || streamCol < 0 || startCol < 0 || durCol < 0) {
        ctx.error(path, "missing column op_name, stream_id, start_time(ms) or duration(ms)", 1);
        return 0;
    }
    const std::int64_t origin = out.trace().originNs;
    std::map<std::string, model::TrackId, std::less<>> tracks;
    std::size_t events = 0;
    while (reader.next()) {
        const std::string_view name = reader.field(nameCol);
        const std::string_view stream = reader.field(streamCol);
        const csv::ExactValue start = csv::parseScaled(reader.field(startCol), 6);
        const csv::ExactValue dur = csv::parseScaled(reader.field(durCol), 6);
        if (name.empty() || stream.empty() || start.status != csv::ValueStatus::Ok
            || dur.status != csv::ValueStatus::Ok || dur.value < 0) {
            ctx.warn(path,
                "skipped a row without an op name, a stream and exact ms start and "
                "duration",
                reader.line());
            continue;
        }
        auto it = tracks.find(stream);
        if (it == tracks.end()) {
            model::TrackInfo info;
            info.kind = model::TrackKind::DeviceStream;
            info.rank = rank;
            info.processId = "1";
            info.processName = "Device";
            info.threadId = std::string(stream);
            info.threadName = "Stream " + std::string(stream);
            it = tracks.emplace(std::string(stream), out.addTrack(info)).first;
        }
        const std::size_t slash = name.rfind('/');
        const std::string_view shortName =
            slash == std::string_view::npos ? name : name.substr(slash + 1);
        model::ArgsId args;
        if (ctx.options.keepArgs)
            args = out.trace().args.add(nlohmann::json {{"fullname", std::string(name)}}.dump());
        out.track(it->second)
            .add(start.value - origin, dur.value, out.intern(shortName),
                isCommunication(shortName) ? model::Category::Communication
                                           : model::Category::Compute,
                args);
        ++events;
    }
    if (events > 0)
        out.trace().metadata.sourceFiles.push_back(ctx.relative(path));
    return events;
}

} // namespace stepscope::import::mindspore

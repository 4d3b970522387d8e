// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "kerneldetails.h"

#include "import/csv/csvfield.h"
#include "import/csv/csvreader.h"
#include "util/decimal.h"
#include "util/saturate.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace stepscope::import::ascend {

namespace {

bool containsNoCase(std::string_view text, std::string_view what)
{
    const auto it =
        std::search(text.begin(), text.end(), what.begin(), what.end(), [](char a, char b) {
            return std::toupper(static_cast<unsigned char>(a))
                == std::toupper(static_cast<unsigned char>(b));
        });
    return it != text.end();
}

std::string idText(std::string_view field)
{
    return csv::isMissing(field) ? std::string() : std::string(field);
}

/// Appends `text` as a JSON string literal (quotes, backslashes and control characters
/// escaped; other bytes copied as they are).
void appendJsonString(std::string &out, std::string_view text)
{
    static constexpr char Hex[] = "0123456789abcdef";
    out.push_back('"');
    for (char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '"' || c == '\\') {
            out.push_back('\\');
            out.push_back(ch);
        } else if (c < 0x20) {
            out += "\\u00";
            out.push_back(Hex[c >> 4]);
            out.push_back(Hex[c & 15]);
        } else {
            out.push_back(ch);
        }
    }
    out.push_back('"');
}

/// The args object of one kernel as compact JSON, built by hand: nlohmann's DOM costs more
/// than the CSV parse on files of millions of rows.
std::string_view kernelArgs(const KernelRow &r, std::string &json)
{
    json.assign("{\"Type\":");
    appendJsonString(json, r.type);
    json += ",\"Accelerator Core\":";
    appendJsonString(json, r.acceleratorCore);
    if (r.step >= 0)
        json += ",\"Step Id\":" + std::to_string(r.step);
    if (!r.taskId.empty()) {
        json += ",\"Task ID\":";
        appendJsonString(json, r.taskId);
    }
    json += ",\"Block Dim\":" + std::to_string(r.blockDim);
    json += ",\"Wait Time(ns)\":" + std::to_string(r.waitNs) + "}";
    return json;
}

} // namespace

model::Category kernelCategory(
    std::string_view acceleratorCore, std::string_view type, std::string_view name)
{
    if (acceleratorCore == "HCCL" || acceleratorCore == "COMMUNICATION"
        || name.rfind("hcom_", 0) == 0)
        return model::Category::Communication;
    if (containsNoCase(type, "MEMCPY"))
        return model::Category::Memcpy;
    if (containsNoCase(type, "MEMSET"))
        return model::Category::Memset;
    return model::Category::Compute;
}

std::vector<KernelRow> readKernelDetails(
    const std::filesystem::path &path, const ImportContext &ctx)
{
    std::vector<KernelRow> rows;
    csv::CsvReader reader(path, &ctx);
    if (!reader.readHeader())
        return rows;
    const int cStep = reader.column("Step Id");
    const int cName = reader.column("Name");
    const int cType = reader.column("Type");
    const int cCore = reader.column("Accelerator Core");
    const int cStart = reader.column("Start Time(us)");
    const int cDur = reader.column("Duration(us)");
    const int cWait = reader.column("Wait Time(us)");
    const int cBlock = reader.column("Block Dim");
    const int cStream = reader.column("Stream ID");
    const int cTask = reader.column("Task ID");
    const int cDevice = reader.column("Device_id");
    if (cName < 0 || cStart < 0 || cDur < 0) {
        ctx.error(path,
            "kernel_details.csv needs the columns `Name`, `Start Time(us)` and "
            "`Duration(us)`; the file was not loaded",
            1);
        return rows;
    }
    while (reader.next()) {
        const csv::ExactValue start = csv::parseMicros(reader.field(cStart));
        const csv::ExactValue dur = csv::parseMicros(reader.field(cDur));
        if (start.status != csv::ValueStatus::Ok) {
            ctx.warn(path, csv::timeProblem(start.status, "Start Time(us)"), reader.line());
            continue;
        }
        if (dur.status == csv::ValueStatus::OutOfRange) {
            ctx.warn(path, csv::timeProblem(dur.status, "Duration(us)"), reader.line());
            continue;
        }
        if (dur.status != csv::ValueStatus::Ok || dur.value < 0) {
            ctx.warn(
                path, "`Duration(us)` must be a non-negative number; row skipped", reader.line());
            continue;
        }
        KernelRow r;
        r.step = csv::parseId(reader.field(cStep)).value_or(-1);
        r.name = std::string(reader.field(cName));
        r.type = std::string(reader.field(cType));
        r.acceleratorCore = std::string(reader.field(cCore));
        r.stream = idText(reader.field(cStream));
        r.taskId = idText(reader.field(cTask));
        r.deviceId = idText(reader.field(cDevice));
        r.startNs = start.value;
        r.durationNs = dur.value;
        const csv::ExactValue wait = csv::parseMicros(reader.field(cWait));
        r.waitNs = wait.status == csv::ValueStatus::Ok ? wait.value : 0;
        r.blockDim = util::parseInt(reader.field(cBlock)).value_or(0);
        r.line = reader.line();
        r.category = kernelCategory(r.acceleratorCore, r.type, r.name);
        rows.push_back(std::move(r));
    }
    return rows;
}

void addKernelTracks(
    const std::vector<KernelRow> &rows, model::TraceBuilder &out, std::int32_t rank, bool keepArgs)
{
    const std::int64_t origin = out.trace().originNs;
    std::map<std::string, model::TrackId> tracks; // key: stream id, or "" / "#hccl"
    auto trackFor = [&](const KernelRow &r) {
        std::string key = r.stream;
        if (key.empty())
            key = r.isCommunication() ? "#hccl" : "";
        const auto it = tracks.find(key);
        if (it != tracks.end())
            return it->second;
        model::TrackInfo info;
        info.rank = rank;
        info.processId = r.deviceId.empty() ? std::string("NPU") : "NPU " + r.deviceId;
        info.processName = "Ascend Hardware";
        if (key == "#hccl") {
            info.kind = model::TrackKind::CommunicationGroup;
            info.threadId = "HCCL";
            info.threadName = "HCCL";
        } else if (key.empty()) {
            info.kind = model::TrackKind::DeviceStream;
            info.threadId = "device";
            info.threadName = "Device tasks";
        } else {
            info.kind = model::TrackKind::DeviceStream;
            info.threadId = key;
            info.threadName = "Stream " + key;
            info.threadSortIndex = util::parseInt(key).value_or(0);
        }
        const model::TrackId id = out.addTrack(std::move(info));
        tracks.emplace(std::move(key), id);
        return id;
    };
    std::string json;
    for (const KernelRow &r : rows) {
        model::ArgsId args;
        if (keepArgs)
            args = out.trace().args.add(kernelArgs(r, json));
        out.track(trackFor(r))
            .add(util::satSub(r.startNs, origin), r.durationNs, out.intern(r.name), r.category,
                args);
    }
}

} // namespace stepscope::import::ascend

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "timelinedisplay.h"

#include "import/chrometrace/tracereader.h"
#include "util/decimal.h"

#include <string>
#include <string_view>

namespace stepscope::import::mindspore {

namespace {

using chrometrace::EventClass;
using chrometrace::EventFields;
using model::Category;

bool contains(std::string_view s, std::string_view part)
{
    return s.find(part) != std::string_view::npos;
}

bool isCommunication(std::string_view s)
{
    return contains(s, "AllReduce") || contains(s, "AllGather") || contains(s, "ReduceScatter")
        || contains(s, "Broadcast") || contains(s, "AllToAll") || contains(s, "Send")
        || contains(s, "Receive") || contains(s, "Recv") || s.substr(0, 4) == "Hcom"
        || s.substr(0, 4) == "hcom" || contains(s, "/Hcom") || contains(s, "nccl");
}

bool isDataLoading(std::string_view s)
{
    return contains(s, "GetNext") || contains(s, "InitData");
}

class TimelineDisplayDialect final : public chrometrace::Dialect
{
public:
    model::TrackKind classifyTrack(
        const chrometrace::ProcessMeta &process, const chrometrace::ThreadMeta &) const override
    {
        if (process.id == "10000")
            return model::TrackKind::Synthetic;
        return model::TrackKind::DeviceStream;
    }

    EventClass classifyEvent(const EventFields &e) const override
    {
        EventClass c;
        if (e.processId == "10000") {
            c.category = Category::Annotation;
            return c;
        }
        // args.type when present ("AllReduce", "cuLaunchKernel"), else the op name.
        std::string_view type;
        if (const std::size_t k = e.args.find("\"type\""); k != std::string_view::npos) {
            const std::size_t q = e.args.find('"', e.args.find(':', k) + 1);
            const std::size_t end = q == std::string_view::npos ? q : e.args.find('"', q + 1);
            if (end != std::string_view::npos)
                type = e.args.substr(q + 1, end - q - 1);
        }
        if (isCommunication(type) || isCommunication(e.name))
            c.category = Category::Communication;
        else if (isDataLoading(type) || isDataLoading(e.name))
            c.category = Category::DataLoading;
        else if (e.processId == "1" || e.processId == "0" || !type.empty())
            c.category = Category::Compute;
        else
            c.category = Category::Other;
        return c;
    }
};

/// `..._<rank>.json` -> rank.
std::optional<std::int32_t> rankFromName(const std::filesystem::path &path)
{
    const std::string stem = path.stem().string();
    const std::size_t us = stem.rfind('_');
    if (us == std::string::npos)
        return std::nullopt;
    auto n = util::parseInt(std::string_view(stem).substr(us + 1));
    if (!n || *n < 0 || *n > 1000000)
        return std::nullopt;
    return static_cast<std::int32_t>(*n);
}

} // namespace

bool readTimelineDisplay(
    const std::filesystem::path &path, const ImportContext &ctx, model::TraceBuilder &out)
{
    try {
        model::Trace &trace = out.trace();
        if (out.trackCount() == 0) {
            if (auto rank = rankFromName(path)) {
                trace.rank = *rank;
                trace.metadata.rank = *rank;
            }
        }
        TimelineDisplayDialect dialect;
        const bool ok = chrometrace::readTraceFile(path, dialect, ctx, out);
        if (trace.metadata.format.empty())
            trace.metadata.format = "mindspore-legacy";
        trace.metadata.sourceFiles.push_back(ctx.relative(path));
        return ok;
    } catch (const util::Cancelled &) {
        throw;
    } catch (const std::exception &e) {
        ctx.error(path, std::string("timeline import stopped: ") + e.what());
        return false;
    }
}

} // namespace stepscope::import::mindspore

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "traceview.h"

#include "import/ascend/tasktype.h"
#include "import/chrometrace/tracereader.h"
#include "util/decimal.h"
#include "util/text.h"

#include <string>
#include <string_view>
#include <vector>

namespace stepscope::import::ascend {

namespace {

using chrometrace::EventClass;
using chrometrace::EventFields;
using model::Category;
using util::startsWith;
using util::stringArg;

Category hostCategory(std::string_view cat, std::string_view name)
{
    if (cat == "python_function")
        return Category::Python;
    if (cat == "cpu_op") {
        if (startsWith(name, "enumerate(DataLoader)"))
            return Category::DataLoading;
        if (startsWith(name, "ProfilerStep#"))
            return Category::Annotation;
        return Category::HostOp;
    }
    if (cat == "enqueue" || cat == "dequeue")
        return Category::Runtime;
    if (cat == "user_annotation")
        return Category::Annotation;
    return Category::Other;
}

class TraceViewDialect final : public chrometrace::Dialect
{
public:
    model::TrackKind classifyTrack(const chrometrace::ProcessMeta &process,
        const chrometrace::ThreadMeta &thread) const override
    {
        // A CANN timeline (msprof_*.json) opened alone: its `Step Trace` lane of the device
        // (Iteration, FP_BP Time, Reduce spans) marks steps, it is no work of the device.
        if (process.name == "Ascend Hardware")
            return startsWith(thread.name, "Step Trace") ? model::TrackKind::Synthetic
                                                         : model::TrackKind::DeviceStream;
        if (isCommunicationProcess(process.name))
            return model::TrackKind::CommunicationGroup;
        if (process.name == "Overlap Analysis")
            return model::TrackKind::Synthetic;
        return model::TrackKind::HostThread;
    }

    EventClass classifyEvent(const EventFields &e) const override
    {
        EventClass c;
        if (!e.category.empty()) {
            c.category = hostCategory(e.category, e.name);
            return c;
        }
        const std::string_view taskType = stringArg(e.args, "\"Task Type\"");
        if (!taskType.empty()) {
            c.category = taskTypeCategory(taskType);
            return c;
        }
        c.deferred = true; // decided by the process (HCCL, CANN, Overlap Analysis)
        return c;
    }

    Category classifyDeferred(const chrometrace::ProcessMeta &process,
        const chrometrace::ThreadMeta &, model::TrackKind, const EventFields &) const override
    {
        return processCategory(process.name);
    }

    void onEvent(const chrometrace::EventInfo &e, model::TraceBuilder &) const override
    {
        if (e.trackInfo->kind == model::TrackKind::DeviceStream
            && e.category == model::Category::Compute)
            ++computeTasks;
        if (e.trackInfo->kind != model::TrackKind::HostThread
            || !startsWith(e.name, "ProfilerStep#"))
            return;
        if (auto n = util::parseInt(e.name.substr(13)))
            steps.push_back(model::Step {*n, e.startNs, e.startNs + e.durationNs});
    }

    mutable std::vector<model::Step> steps;
    mutable std::int64_t computeTasks = 0;
};

} // namespace

bool readTraceView(
    const std::filesystem::path &path, const ImportContext &ctx, model::TraceBuilder &out)
{
    std::int64_t computeTasks = 0;
    return readTraceViewCounting(path, ctx, out, computeTasks);
}

bool readTraceViewCounting(const std::filesystem::path &path, const ImportContext &ctx,
    model::TraceBuilder &out, std::int64_t &computeTasks)
{
    try {
        TraceViewDialect dialect;
        const bool ok = chrometrace::readTraceFile(path, dialect, ctx, out);
        model::Trace &trace = out.trace();
        if (trace.metadata.format.empty())
            trace.metadata.format = "ascend";
        trace.metadata.sourceFiles.push_back(ctx.relative(path));
        for (const model::Step &s : dialect.steps) {
            bool seen = false;
            for (const model::Step &existing : trace.steps)
                seen = seen || existing.number == s.number;
            if (!seen)
                trace.steps.push_back(s);
        }
        computeTasks = dialect.computeTasks;
        return ok;
    } catch (const util::Cancelled &) {
        throw;
    } catch (const std::exception &e) {
        ctx.error(path, std::string("trace_view import stopped: ") + e.what());
        return false;
    }
}

} // namespace stepscope::import::ascend

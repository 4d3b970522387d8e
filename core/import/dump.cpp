// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "dump.h"

#include "import/losslog/logdump.h"
#include "import/summary.h"
#include "util/saturate.h"

#include <sstream>

namespace stepscope::import {

namespace {

/// `all` is trace.args.readAll(): on-demand args read in file order, once.
nlohmann::json argsJson(const std::vector<std::string> &all, model::ArgsId id)
{
    if (!id.isValid() || id.value() >= all.size())
        return nullptr;
    const std::string &text = all[id.value()];
    nlohmann::json j = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
    if (j.is_discarded())
        return std::string(text); // kept as the text the importer stored
    return j;
}

nlohmann::json trackJson(
    const model::Trace &trace, const std::vector<std::string> &args, const model::Track &track)
{
    const model::TrackInfo &info = track.info();
    nlohmann::json events = nlohmann::json::array();
    for (std::uint32_t row = 0; row < track.rowCount(); ++row) {
        for (std::uint32_t i = track.rowBegin(row); i < track.rowEnd(row); ++i) {
            nlohmann::json dur = nullptr;
            if (!track.isUnfinished(i))
                dur = track.duration(i);
            events.push_back({{"name", std::string(trace.strings.view(track.name(i)))},
                {"category", std::string(model::categoryName(track.category(i)))},
                {"ts_ns", util::satAdd(trace.originNs, track.start(i))}, {"dur_ns", std::move(dur)},
                {"depth", row}, {"args", argsJson(args, track.args(i))}});
        }
    }
    return {{"rank", trace.rank}, {"kind", std::string(model::trackKindName(info.kind))},
        {"process", info.processName}, {"process_id", info.processId}, {"thread", info.threadName},
        {"thread_id", info.threadId}, {"events", std::move(events)}};
}

nlohmann::json memoryJson(const model::Trace &trace)
{
    const model::MemoryData &m = trace.memory;
    nlohmann::json curves = nlohmann::json::array();
    for (const model::MemoryCurve &c : m.curves) {
        nlohmann::json points = nlohmann::json::array();
        for (std::size_t i = 0; i < c.timestampsNs.size(); ++i) {
            points.push_back({util::satAdd(trace.originNs, c.timestampsNs[i]),
                i < c.allocatedBytes.size() ? c.allocatedBytes[i] : -1,
                i < c.reservedBytes.size() ? c.reservedBytes[i] : -1});
        }
        curves.push_back(
            {{"component", c.component}, {"device", c.device}, {"points", std::move(points)}});
    }
    nlohmann::json categories = nlohmann::json::array();
    for (std::size_t i = 0; i < m.categories.timestampsNs.size(); ++i) {
        nlohmann::json point = {util::satAdd(trace.originNs, m.categories.timestampsNs[i])};
        for (const auto &series : m.categories.bytes)
            point.push_back(i < series.size() ? series[i] : 0);
        categories.push_back(std::move(point));
    }
    return {{"rank", trace.rank}, {"curves", std::move(curves)},
        {"category_points", std::move(categories)}, {"allocations", m.allocations.size()},
        {"modules", m.modules.size()}, {"static_allocations", m.staticAllocations.size()}};
}

} // namespace

nlohmann::json dumpJson(const model::Session &session)
{
    nlohmann::json tracks = nlohmann::json::array();
    nlohmann::json flows = nlohmann::json::array();
    nlohmann::json counters = nlohmann::json::array();
    nlohmann::json steps = nlohmann::json::array();
    nlohmann::json memory = nlohmann::json::array();
    std::uint64_t trackBase = 0;
    for (const auto &trace : session.traces) {
        const std::vector<std::string> args = trace->args.readAll();
        for (const model::Track &track : trace->tracks)
            tracks.push_back(trackJson(*trace, args, track));
        for (const model::Flow &f : trace->flows) {
            flows.push_back({{"from", {trackBase + f.from.track.value(), f.from.index}},
                {"to", {trackBase + f.to.track.value(), f.to.index}},
                {"category", std::string(trace->strings.view(f.category))}});
        }
        for (const model::CounterSeries &c : trace->counters) {
            nlohmann::json points = nlohmann::json::array();
            for (std::size_t i = 0; i < c.timestampsNs.size(); ++i)
                points.push_back({util::satAdd(trace->originNs, c.timestampsNs[i]), c.values[i]});
            counters.push_back({{"rank", trace->rank}, {"process", c.process}, {"name", c.name},
                {"key", c.key}, {"points", std::move(points)}});
        }
        for (const model::Step &s : trace->steps) {
            steps.push_back({{"rank", trace->rank}, {"step", s.number},
                {"start_ns", util::satAdd(trace->originNs, s.startNs)},
                {"end_ns", util::satAdd(trace->originNs, s.endNs)}});
        }
        if (!trace->memory.empty())
            memory.push_back(memoryJson(*trace));
        trackBase += trace->tracks.size();
    }
    nlohmann::json diagnostics = nlohmann::json::array();
    for (const model::Diagnostic &d : session.report.diagnostics())
        diagnostics.push_back(diagnosticJson(d));
    nlohmann::json logs = nlohmann::json::array();
    for (const auto &log : session.trainingLogs)
        logs.push_back(nlohmann::json::parse(losslog::trainingLogToJson(*log, true)));
    return {{"origin_ns", session.originNs()}, {"tracks", std::move(tracks)},
        {"flows", std::move(flows)}, {"counters", std::move(counters)}, {"steps", std::move(steps)},
        {"memory", std::move(memory)}, {"training_logs", std::move(logs)},
        {"diagnostics", std::move(diagnostics)}};
}

std::string dumpText(const model::Session &session)
{
    std::ostringstream out;
    out << "origin_ns " << session.originNs() << '\n';
    std::uint64_t trackIndex = 0;
    std::uint64_t trackBase = 0;
    for (const auto &trace : session.traces) {
        const std::vector<std::string> args = trace->args.readAll();
        for (const model::Track &track : trace->tracks) {
            const model::TrackInfo &info = track.info();
            out << "track " << trackIndex++ << " rank " << trace->rank << ' '
                << model::trackKindName(info.kind) << " process " << info.processId << " \""
                << info.processName << "\" thread " << info.threadId << " \"" << info.threadName
                << "\" events " << track.size() << '\n';
            for (std::uint32_t row = 0; row < track.rowCount(); ++row) {
                for (std::uint32_t i = track.rowBegin(row); i < track.rowEnd(row); ++i) {
                    out << "  " << util::satAdd(trace->originNs, track.start(i)) << ' ';
                    if (track.isUnfinished(i))
                        out << "unfinished";
                    else
                        out << track.duration(i);
                    out << " d" << row << ' ' << model::categoryName(track.category(i)) << ' '
                        << trace->strings.view(track.name(i));
                    if (track.args(i).isValid() && track.args(i).value() < args.size())
                        out << ' ' << args[track.args(i).value()];
                    out << '\n';
                }
            }
        }
        for (const model::Flow &f : trace->flows) {
            out << "flow " << (trackBase + f.from.track.value()) << ':' << f.from.index << " -> "
                << (trackBase + f.to.track.value()) << ':' << f.to.index << ' '
                << trace->strings.view(f.category) << '\n';
        }
        trackBase += trace->tracks.size();
        for (const model::CounterSeries &c : trace->counters) {
            out << "counter rank " << trace->rank << " \"" << c.process << "\" \"" << c.name
                << "\" \"" << c.key << "\" points " << c.timestampsNs.size() << '\n';
            for (std::size_t i = 0; i < c.timestampsNs.size(); ++i)
                out << "  " << util::satAdd(trace->originNs, c.timestampsNs[i]) << ' '
                    << c.values[i] << '\n';
        }
    }
    for (const auto &log : session.trainingLogs)
        out << "training log " << losslog::describeTrainingLog(*log);
    out << session.report.toText();
    return out.str();
}

} // namespace stepscope::import

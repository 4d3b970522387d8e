// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "summary.h"

#include "util/jsontext.h"
#include "util/saturate.h"

#include <cstdio>
#include <sstream>

namespace stepscope::import {

namespace {

struct Counts
{
    std::uint64_t events = 0;
    std::uint64_t tracks = 0;
    std::uint64_t flows = 0;
    std::uint64_t counters = 0;
    std::uint64_t counterPoints = 0;
    std::uint64_t memoryPoints = 0;
};

Counts countAll(const model::Session &session)
{
    Counts c;
    for (const auto &t : session.traces) {
        c.events += t->eventCount();
        c.tracks += t->tracks.size();
        c.flows += t->flows.size();
        c.counters += t->counters.size();
        for (const model::CounterSeries &s : t->counters)
            c.counterPoints += s.timestampsNs.size();
        c.memoryPoints += t->memory.pointCount();
    }
    return c;
}

std::string formatUs(double us)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f", us);
    return buf;
}

} // namespace

nlohmann::json diagnosticJson(const model::Diagnostic &d)
{
    return nlohmann::json {{"severity", std::string(model::severityName(d.severity))},
        {"file", d.file}, {"line", d.line}, {"offset", d.offset}, {"message", d.message},
        {"count", d.count}};
}

StepSummaries::StepSummaries(const model::Session &session)
{
    for (const auto &t : session.traces)
        for (const model::Step &s : t->steps)
            m_steps.emplace_back(t.get(), &s);
}

nlohmann::json StepSummaries::operator()(std::size_t i) const
{
    const auto &[trace, step] = m_steps[i];
    return {{"rank", trace->rank}, {"step", step->number},
        {"start_ns", util::satAdd(trace->originNs, step->startNs)},
        {"duration_us", static_cast<double>(util::satSub(step->endNs, step->startNs)) / 1000.0}};
}

nlohmann::json importSummaryJson(const model::Session &session, bool withSteps)
{
    const Counts c = countAll(session);
    nlohmann::json ranks = nlohmann::json::array();
    for (const auto &t : session.traces)
        ranks.push_back(t->rank);
    nlohmann::json diagnostics = nlohmann::json::array();
    for (const model::Diagnostic &d : session.report.diagnostics())
        diagnostics.push_back(diagnosticJson(d));
    nlohmann::json summary {{"format", session.format}, {"ranks", std::move(ranks)},
        {"counts",
            {{"events", c.events}, {"tracks", c.tracks}, {"flows", c.flows},
                {"counters", c.counters}, {"counter_points", c.counterPoints},
                {"memory_points", c.memoryPoints}}},
        {"diagnostics", std::move(diagnostics)}};
    if (withSteps) {
        nlohmann::json &steps = summary["steps"] = nlohmann::json::array();
        const StepSummaries all(session);
        for (std::size_t i = 0; i < all.size(); ++i)
            steps.push_back(all(i));
    }
    return summary;
}

std::string importSummaryText(const model::Session &session, bool withSteps)
{
    const Counts c = countAll(session);
    std::ostringstream out;
    out << "format: " << session.format << '\n';
    out << "ranks:";
    if (session.traces.empty())
        out << " none";
    for (std::size_t i = 0; i < session.traces.size(); ++i)
        out << (i == 0 ? " " : ", ") << session.traces[i]->rank;
    out << '\n';
    out << "events: " << c.events << ", tracks: " << c.tracks << ", flows: " << c.flows
        << ", counters: " << c.counters << " (" << c.counterPoints
        << " points), memory points: " << c.memoryPoints << '\n';
    for (const auto &t : session.traces) {
        if (!withSteps || t->steps.empty())
            continue;
        out << "rank " << t->rank << " steps (" << t->steps.size() << "):\n";
        for (const model::Step &s : t->steps) {
            out << "  step " << s.number << ": start " << util::satAdd(t->originNs, s.startNs)
                << " ns, duration "
                << formatUs(static_cast<double>(util::satSub(s.endNs, s.startNs)) / 1000.0)
                << " us\n";
        }
    }
    const auto &diags = session.report.diagnostics();
    out << "diagnostics: " << diags.size() << '\n';
    // A problem of every rank of a large job is said once, with how many more share it.
    for (const model::DiagnosticGroup &g : model::groupDiagnostics(diags)) {
        const model::Diagnostic &d = diags[g.members.front()];
        out << "  " << model::severityName(d.severity) << ": " << d.file;
        if (d.line > 0)
            out << ':' << d.line;
        else if (d.offset >= 0)
            out << '@' << d.offset;
        out << ": " << d.message;
        if (d.count > 1)
            out << " (" << d.count << " times)";
        out << model::groupSuffix(g) << '\n';
    }
    return out.str();
}

std::string jsonText(const nlohmann::json &j, int indent)
{
    return util::jsonText(j, indent);
}

} // namespace stepscope::import

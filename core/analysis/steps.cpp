// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "steps.h"

#include "units.h"
#include "util/joinfirst.h"
#include "util/saturate.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace stepscope::analysis {

namespace {

/// The number after `prefix` when `name` is exactly prefix + digits, else nothing.
std::optional<std::int64_t> numberAfter(std::string_view name, std::string_view prefix)
{
    if (name.size() <= prefix.size() || name.substr(0, prefix.size()) != prefix)
        return std::nullopt;
    std::int64_t n = 0;
    for (char c : name.substr(prefix.size())) {
        if (!std::isdigit(static_cast<unsigned char>(c)))
            return std::nullopt;
        if (n > (INT64_MAX - 9) / 10)
            return std::nullopt;
        n = n * 10 + (c - '0');
    }
    return n;
}

struct Candidate
{
    model::Step step;
    bool host = false;
};

/// Keeps one step per number (host copy first, then the longest) and removes overlaps
/// (a step that starts before the previous one ends is cut at the previous end).
std::vector<model::Step> finishSteps(const std::map<std::int64_t, Candidate> &byNumber)
{
    std::vector<model::Step> steps;
    steps.reserve(byNumber.size());
    for (const auto &[number, c] : byNumber)
        steps.push_back(c.step);
    std::sort(steps.begin(), steps.end(), [](const model::Step &a, const model::Step &b) {
        return a.startNs != b.startNs ? a.startNs < b.startNs : a.number < b.number;
    });
    std::vector<model::Step> out;
    for (auto s : steps) {
        if (!out.empty() && s.startNs < out.back().endNs)
            s.startNs = out.back().endNs;
        if (s.endNs > s.startNs)
            out.push_back(s);
    }
    return out;
}

void offer(std::map<std::int64_t, Candidate> &byNumber, std::int64_t number, std::int64_t start,
    std::int64_t end, bool host)
{
    auto it = byNumber.find(number);
    if (it == byNumber.end()) {
        byNumber.emplace(number, Candidate {model::Step {number, start, end}, host});
        return;
    }
    Candidate &c = it->second;
    const bool better = (host && !c.host) || (host == c.host && end - start > c.step.durationNs());
    if (better)
        c = Candidate {model::Step {number, start, end}, host};
}

/// The profiler closes its last ProfilerStep#N when it stops: a step under a tenth of the
/// median of the others is that partial step (hta-mi250-minitoy: #2 is 49 µs after a 9.29 ms
/// #1), not a training step; averaging it in halves the mean. Dropped with a note.
void dropPartialLastStep(
    std::vector<model::Step> &steps, std::int32_t rank, model::LoadReport *report)
{
    if (steps.size() < 2)
        return;
    std::vector<std::int64_t> others;
    for (std::size_t i = 0; i + 1 < steps.size(); ++i)
        others.push_back(steps[i].durationNs());
    std::nth_element(others.begin(),
        others.begin() + static_cast<std::ptrdiff_t>(others.size() / 2), others.end());
    const std::int64_t median = others[others.size() / 2];
    const model::Step last = steps.back();
    if (last.durationNs() >= median / 10)
        return;
    steps.pop_back();
    if (report)
        report->add(model::Severity::Info, "rank " + std::to_string(rank),
            "ProfilerStep#" + std::to_string(last.number) + " (" + formatDuration(last.durationNs())
                + ", under a tenth of the median step " + formatDuration(median)
                + ") left out: the profiler stopped during it");
}

std::vector<model::Step> profilerSteps(const model::Trace &trace, model::LoadReport *report)
{
    std::map<std::int64_t, Candidate> byNumber;
    for (const auto &track : trace.tracks) {
        const bool host = track.info().kind == model::TrackKind::HostThread;
        if (!host && track.info().kind != model::TrackKind::DeviceStream)
            continue;
        for (std::uint32_t i = 0; i < track.size(); ++i) {
            const auto name = trace.strings.view(track.name(i));
            if (auto n = numberAfter(name, "ProfilerStep#"))
                offer(byNumber, *n, track.start(i), track.end(i), host);
        }
    }
    std::vector<model::Step> steps = finishSteps(byNumber);
    // Only a host copy is closed by the profiler's stop; a GPU-only copy is short by nature.
    if (!steps.empty() && byNumber.at(steps.back().number).host)
        dropPartialLastStep(steps, trace.rank, report);
    return steps;
}

std::vector<model::Step> namedSteps(const model::Trace &trace)
{
    std::map<std::int64_t, Candidate> byNumber;
    for (const auto &track : trace.tracks) {
        const bool host = track.info().kind == model::TrackKind::HostThread;
        for (std::uint32_t i = 0; i < track.size(); ++i) {
            const auto name = trace.strings.view(track.name(i));
            std::optional<std::int64_t> n;
            for (std::string_view prefix : {"Step ", "Step#", "Iteration ", "step_num "}) {
                n = numberAfter(name, prefix);
                if (n)
                    break;
            }
            if (n)
                offer(byNumber, *n, track.start(i), track.end(i), host);
        }
    }
    return finishSteps(byNumber);
}

/// Steps between the ends of a repeated optimizer step (docs/formats.md §5.5): the name that
/// occurs most often on host threads wins (two optimizers per step must not double the
/// steps); step k runs from the end of optimizer k-1 (the trace start for the first) to the
/// end of optimizer k.
std::vector<model::Step> optimizerSteps(const model::Trace &trace)
{
    std::map<std::string_view, std::vector<std::pair<std::int64_t, std::int64_t>>> byName;
    for (const auto &track : trace.tracks) {
        if (track.info().kind != model::TrackKind::HostThread)
            continue;
        for (std::uint32_t i = 0; i < track.size(); ++i) {
            const auto name = trace.strings.view(track.name(i));
            if (name.substr(0, 15) == "Optimizer.step#")
                byName[name].emplace_back(track.start(i), track.end(i));
        }
    }
    const std::vector<std::pair<std::int64_t, std::int64_t>> *best = nullptr;
    for (const auto &[name, list] : byName) {
        if (!best || list.size() > best->size())
            best = &list;
    }
    std::vector<model::Step> steps;
    if (!best || best->size() < 2)
        return steps;
    auto ends = *best;
    std::sort(ends.begin(), ends.end());
    std::int64_t start = trace.extent().first;
    std::int64_t number = 1;
    for (const auto &[s, e] : ends) {
        if (e > start) {
            steps.push_back(model::Step {number++, start, e});
            start = e;
        }
    }
    return steps;
}

StepDetection timelineSteps(const model::Trace &trace, model::LoadReport *report)
{
    StepDetection d;
    if (!trace.steps.empty()) {
        d.steps = trace.steps;
        std::sort(d.steps.begin(), d.steps.end(),
            [](const model::Step &a, const model::Step &b) { return a.startNs < b.startNs; });
        d.source = StepSource::Importer;
        // Kineto's importer gives the host ProfilerStep#N spans: the same partial last step
        // as below (hta-mi250-minitoy: #2 is 49 us; without this the Steps panel showed it
        // and its mean halved).
        if (trace.metadata.format == "kineto")
            dropPartialLastStep(d.steps, trace.rank, report);
        return d;
    }
    d.steps = profilerSteps(trace, report);
    if (!d.steps.empty()) {
        d.source = StepSource::ProfilerStep;
        return d;
    }
    d.steps = namedSteps(trace);
    if (!d.steps.empty()) {
        d.source = StepSource::AscendStep;
        return d;
    }
    const std::string where = "rank " + std::to_string(trace.rank);
    d.steps = optimizerSteps(trace);
    if (!d.steps.empty()) {
        d.source = StepSource::Optimizer;
        if (report)
            report->add(model::Severity::Info, where,
                "no step markers (ProfilerStep#N, Step, Iteration): "
                    + std::to_string(d.steps.size())
                    + " steps inferred from repeated Optimizer.step# ranges");
        return d;
    }
    const auto [t0, t1] = trace.extent();
    if (t1 > t0) {
        d.steps.push_back(model::Step {0, t0, t1});
        d.source = StepSource::WholeTrace;
        if (report)
            report->add(model::Severity::Info, where,
                "no step markers and no repeated Optimizer.step#: the whole trace is "
                "analysed as one step");
        return d;
    }
    d.source = StepSource::Empty;
    return d;
}

/// The steps of a rank with a step table (see detectStepsWithSource).
StepDetection tableSteps(const model::Trace &trace, StepDetection raw,
    std::vector<const model::ReferenceStep *> rows, model::LoadReport *report)
{
    std::stable_sort(
        rows.begin(), rows.end(), [](const model::ReferenceStep *a, const model::ReferenceStep *b) {
            return a->step < b->step;
        });
    const bool marked = raw.source == StepSource::Importer || raw.source == StepSource::ProfilerStep
        || raw.source == StepSource::AscendStep;
    std::map<std::int64_t, std::size_t> rawByNumber;
    if (marked) {
        for (std::size_t i = 0; i < raw.steps.size(); ++i)
            rawByNumber.emplace(raw.steps[i].number, i);
    }
    std::vector<bool> rawUsed(raw.steps.size(), false);
    struct Out
    {
        model::Step step;
        const model::ReferenceStep *row;
        bool onTimeline;
    };
    std::vector<Out> out;
    std::vector<const model::ReferenceStep *> unplaced;
    for (const auto *row : rows) {
        const auto it = rawByNumber.find(row->step);
        std::size_t match = raw.steps.size();
        if (row->step >= 0 && it != rawByNumber.end() && !rawUsed[it->second])
            match = it->second;
        else if (rows.size() == 1 && raw.steps.size() == 1 && (!marked || row->step < 0))
            match = 0; // one step each, one of them unnumbered: the same step
        if (match == raw.steps.size()) {
            unplaced.push_back(row);
            continue;
        }
        rawUsed[match] = true;
        model::Step st = raw.steps[match];
        if (row->step >= 0 || !marked)
            st.number = row->step;
        out.push_back({st, row, true});
    }
    std::vector<std::int64_t> unmatched; // marked timeline steps no row numbers
    for (std::size_t i = 0; i < raw.steps.size() && marked; ++i)
        if (!rawUsed[i])
            unmatched.push_back(raw.steps[i].number);
    if (report && !unplaced.empty() && !unmatched.empty()) {
        // Rows beside the timeline are normal (a trace trimmed to fewer steps); rows and
        // timeline steps that each lack the other may be one step numbered twice.
        std::vector<std::int64_t> rowIds;
        rowIds.reserve(unplaced.size());
        for (const auto *row : unplaced)
            rowIds.push_back(row->step);
        report->add(model::Severity::Warning, unplaced.front()->source,
            "rank " + std::to_string(trace.rank) + ": the table's step ids ("
                + util::joinFirst(rowIds, 5)
                + ") match none of the timeline's, and the timeline's ("
                + util::joinFirst(unmatched, 5)
                + ") have no row: both are shown, the table's after the timeline's. Were they "
                  "the same steps, the table would come from another run or have been edited");
    }
    std::int64_t cursor = 0;
    bool any = false;
    for (std::size_t i = 0; i < raw.steps.size(); ++i) {
        // Guessed steps (whole trace, optimizer ranges) give way to the table's.
        if (!rawUsed[i] && !marked)
            continue;
        if (!rawUsed[i])
            out.push_back({raw.steps[i], nullptr, true});
        cursor = any ? std::max(cursor, raw.steps[i].endNs) : raw.steps[i].endNs;
        any = true;
    }
    if (!any)
        cursor = trace.extent().first;
    for (const auto *row : unplaced) {
        const std::int64_t ns = tableStepNs(*row);
        out.push_back({model::Step {row->step, cursor, cursor + ns}, row, false});
        cursor += ns;
    }
    std::stable_sort(out.begin(), out.end(),
        [](const Out &a, const Out &b) { return a.step.startNs < b.step.startNs; });
    StepDetection d;
    d.source = StepSource::ProfilerTable;
    for (const auto &o : out) {
        d.steps.push_back(o.step);
        d.rows.push_back(o.row);
        d.onTimeline.push_back(o.onTimeline);
    }
    return d;
}

} // namespace

bool isStepTableRow(const model::ReferenceStep &row)
{
    return row.kind != "stage" && row.find("Computing") != nullptr;
}

std::int64_t usToNs(double us)
{
    return util::saturatingRound(us * 1000.0); // llround is unspecified beyond int64
}

std::int64_t tableStepNs(const model::ReferenceStep &row)
{
    std::int64_t ns = 0;
    for (const char *key : {"Preparing", "Computing", "Communication(Not Overlapped)", "Free"}) {
        if (const double *v = row.find(key))
            ns = util::satAdd(ns, usToNs(*v));
    }
    return std::max<std::int64_t>(ns, 0);
}

StepDetection detectStepsWithSource(const model::Trace &trace, model::LoadReport *report)
{
    std::vector<const model::ReferenceStep *> rows;
    for (const auto &r : trace.referenceSteps) {
        if (isStepTableRow(r))
            rows.push_back(&r);
    }
    if (rows.empty())
        return timelineSteps(trace, report);
    // The table replaces the guesses (whole trace, optimizer steps): no note about them.
    StepDetection raw = timelineSteps(trace, nullptr);
    return tableSteps(trace, std::move(raw), std::move(rows), report);
}

std::vector<model::Step> detectSteps(const model::Trace &trace, model::LoadReport *report)
{
    return detectStepsWithSource(trace, report).steps;
}

} // namespace stepscope::analysis

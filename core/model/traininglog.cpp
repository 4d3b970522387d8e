// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "traininglog.h"

#include <cmath>

namespace stepscope::model {

std::string_view logSeriesKindName(LogSeriesKind k)
{
    switch (k) {
    case LogSeriesKind::Loss:
        return "loss";
    case LogSeriesKind::EvalLoss:
        return "eval loss";
    case LogSeriesKind::Perplexity:
        return "perplexity";
    case LogSeriesKind::LearningRate:
        return "learning rate";
    case LogSeriesKind::GradNorm:
        return "grad norm";
    case LogSeriesKind::StepTime:
        return "step time";
    case LogSeriesKind::Throughput:
        return "throughput";
    case LogSeriesKind::Memory:
        return "memory";
    case LogSeriesKind::Mfu:
        return "MFU";
    case LogSeriesKind::LossScale:
        return "loss scale";
    case LogSeriesKind::Skipped:
        return "skipped";
    case LogSeriesKind::WallTime:
        return "wall time";
    case LogSeriesKind::Epoch:
        return "epoch";
    case LogSeriesKind::Other:
        return "other";
    }
    return "other";
}

void LogSeries::add(std::int64_t step, double value, std::int64_t line, bool isDuplicate)
{
    steps.push_back(step);
    values.push_back(value);
    lines.push_back(line);
    duplicate.push_back(isDuplicate ? 1 : 0);
}

std::size_t LogSeries::nonFiniteCount() const
{
    std::size_t n = 0;
    for (double v : values)
        if (!std::isfinite(v))
            ++n;
    return n;
}

const LogSeries *TrainingLog::find(
    std::string_view name, std::uint32_t run, std::int32_t rank) const
{
    for (const LogSeries &s : series)
        if (s.run == run && s.name == name && (rank < 0 || s.rank == rank))
            return &s;
    return nullptr;
}

const LogSeries *TrainingLog::findKind(LogSeriesKind kind, std::uint32_t run) const
{
    for (const LogSeries &s : series)
        if (s.run == run && s.kind == kind)
            return &s;
    return nullptr;
}

const LogSeries *TrainingLog::primaryLoss(std::uint32_t run) const
{
    // Ties are decided by the series alone, never by where the log printed it: a CSV with
    // its columns swapped has the same primary loss.
    const auto before = [](const LogSeries &a, const LogSeries &b) {
        if (a.size() != b.size())
            return a.size() > b.size();
        if (a.name.size() != b.name.size())
            return a.name.size() < b.name.size();
        if (a.name != b.name)
            return a.name < b.name;
        return a.rank < b.rank;
    };
    const LogSeries *best = nullptr;
    for (LogSeriesKind kind : {LogSeriesKind::Loss, LogSeriesKind::Perplexity}) {
        for (const LogSeries &s : series)
            if (s.run == run && s.kind == kind && (!best || before(s, *best)))
                best = &s;
        if (best)
            return best;
    }
    return nullptr;
}

const double *TrainingLog::scalar(std::string_view name) const
{
    for (const auto &[key, value] : scalars)
        if (key == name)
            return &value;
    return nullptr;
}

void TrainingLog::addIssue(std::int64_t line, std::string message)
{
    ++badLineCount;
    if (issues.size() < 1000)
        issues.push_back({line, std::move(message)});
}

} // namespace stepscope::model

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "rangestatistics.h"

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>

namespace stepscope::ui::timeline {

std::vector<RangeStat> computeRangeStats(
    const TimelineModel &model, std::int64_t t0, std::int64_t t1, const QSet<QString> &hiddenLanes)
{
    std::vector<RangeStat> out;
    if (t1 <= t0)
        return out;
    struct Acc
    {
        std::int64_t self = 0;
        std::int64_t total = 0;
        std::uint64_t count = 0;
        int lanes = 0;
        model::Category category = model::Category::Other;
    };
    // (rank, name) -> totals; names resolved once per lane and distinct id.
    std::map<std::pair<std::int32_t, std::string>, Acc> byName;
    for (const Lane &lane : model.lanes()) {
        if (lane.kind != LaneKind::Track || hiddenLanes.contains(lane.key))
            continue;
        const model::Trace &trace = model.trace(lane.traceIndex);
        const model::Track &track = trace.tracks[static_cast<std::size_t>(lane.trackIndex)];
        const std::int64_t offset = model.offsetNs(lane.traceIndex);
        const std::int64_t a = t0 - offset;
        const std::int64_t b = t1 - offset;
        std::unordered_map<std::uint32_t, Acc> byId;
        for (std::uint32_t row = 0; row < track.rowCount(); ++row) {
            const auto [first, last] = track.visibleRange(row, a, b);
            for (std::uint32_t i = first; i < last; ++i) {
                const std::int64_t s = std::max(track.start(i), a);
                const std::int64_t e = std::min(track.end(i), b);
                const std::int64_t clipped = std::max<std::int64_t>(0, e - s);
                // What the next row covers inside this event is its children's time.
                std::int64_t covered = 0;
                if (row + 1 < track.rowCount() && clipped > 0) {
                    const auto [cf, cl] = track.visibleRange(row + 1, s, e);
                    for (std::uint32_t k = cf; k < cl; ++k)
                        covered += std::max<std::int64_t>(
                            0, std::min(track.end(k), e) - std::max(track.start(k), s));
                }
                Acc &acc = byId[track.name(i).value()];
                acc.self += std::max<std::int64_t>(0, clipped - covered);
                acc.total += clipped;
                acc.count += 1;
                acc.category = track.category(i);
            }
        }
        for (const auto &[id, acc] : byId) {
            Acc &sum = byName[{trace.rank, std::string(trace.strings.view(model::StringId(id)))}];
            sum.self += acc.self;
            sum.total += acc.total;
            sum.count += acc.count;
            sum.lanes += 1;
            sum.category = acc.category;
        }
    }
    const double length = static_cast<double>(t1 - t0);
    out.reserve(byName.size());
    for (const auto &[key, acc] : byName) {
        RangeStat stat;
        stat.name = QString::fromStdString(key.second);
        stat.rank = key.first;
        stat.category = acc.category;
        stat.selfNs = acc.self;
        stat.totalNs = acc.total;
        stat.count = acc.count;
        stat.lanes = acc.lanes;
        stat.share =
            std::min(1.0, static_cast<double>(acc.self) / (length * std::max(1, acc.lanes)));
        out.push_back(std::move(stat));
    }
    std::sort(out.begin(), out.end(), [](const RangeStat &x, const RangeStat &y) {
        if (x.selfNs != y.selfNs)
            return x.selfNs > y.selfNs;
        if (x.rank != y.rank)
            return x.rank < y.rank;
        return x.name < y.name;
    });
    return out;
}

} // namespace stepscope::ui::timeline

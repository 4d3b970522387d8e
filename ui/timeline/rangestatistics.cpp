// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "rangestatistics.h"

#include <algorithm>
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
        std::int64_t total = 0;
        std::uint64_t count = 0;
        model::Category category = model::Category::Other;
    };
    std::unordered_map<std::string, Acc> byName;
    for (const Lane &lane : model.lanes()) {
        if (lane.kind != LaneKind::Track || hiddenLanes.contains(lane.key))
            continue;
        const model::Trace &trace = model.trace(lane.traceIndex);
        const model::Track &track = trace.tracks[static_cast<std::size_t>(lane.trackIndex)];
        const std::int64_t offset = model.offsetNs(lane.traceIndex);
        // Ids first, names once per distinct id.
        std::unordered_map<std::uint32_t, Acc> byId;
        for (std::uint32_t row = 0; row < track.rowCount(); ++row) {
            const auto [first, last] = track.visibleRange(row, t0 - offset, t1 - offset);
            for (std::uint32_t i = first; i < last; ++i) {
                const std::int64_t s = std::max(track.start(i) + offset, t0);
                const std::int64_t e = std::min(track.end(i) + offset, t1);
                Acc &a = byId[track.name(i).value()];
                a.total += std::max<std::int64_t>(0, e - s);
                a.count += 1;
                a.category = track.category(i);
            }
        }
        for (const auto &[id, acc] : byId) {
            Acc &a = byName[std::string(trace.strings.view(model::StringId(id)))];
            a.total += acc.total;
            a.count += acc.count;
            a.category = acc.category;
        }
    }
    const double length = static_cast<double>(t1 - t0);
    out.reserve(byName.size());
    for (const auto &[name, acc] : byName)
        out.push_back({QString::fromStdString(name), acc.category, acc.total, acc.count,
            static_cast<double>(acc.total) / length});
    std::sort(out.begin(), out.end(), [](const RangeStat &a, const RangeStat &b) {
        if (a.totalNs != b.totalNs)
            return a.totalNs > b.totalNs;
        return a.name < b.name;
    });
    return out;
}

} // namespace stepscope::ui::timeline

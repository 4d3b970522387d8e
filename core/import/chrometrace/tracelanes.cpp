// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The staged lanes as chunks merge: each event's columns, and room for what the rest of the
// file projects.
#include "traceassembly.h"

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

namespace stepscope::import::chrometrace {

using model::StringId;

void TraceAssembly::Lane::push(std::int64_t t, std::int64_t d, StringId n, StringId c,
    model::ArgsId a, const EventArgIds &i, std::uint8_t cls, std::uint8_t f)
{
    ts.push_back(t);
    dur.push_back(d);
    name.push_back(n);
    cat.push_back(c);
    args.push_back(a);
    correlation.push_back(i.correlation);
    externalId.push_back(i.externalId);
    category.push_back(cls);
    flags.push_back(f);
}

void TraceAssembly::Lane::reserve(std::size_t n)
{
    ts.reserve(n);
    dur.reserve(n);
    name.reserve(n);
    cat.reserve(n);
    args.reserve(n);
    correlation.reserve(n);
    externalId.reserve(n);
    category.reserve(n);
    flags.reserve(n);
}

std::uint64_t TraceAssembly::Lane::exactRepeats(const std::vector<std::uint32_t> &order) const
{
    const auto nth = [&](std::size_t k) {
        return order.empty() ? static_cast<std::uint32_t>(k) : order[k];
    };
    std::uint64_t repeats = 0;
    for (std::size_t k = 0, run = 0; k < ts.size(); ++k) {
        const std::uint32_t x = nth(k);
        if (k > 0 && (ts[x] != ts[nth(k - 1)] || dur[x] != dur[nth(k - 1)]))
            run = k; // the first event of this start and duration
        for (std::size_t j = run; j < k; ++j) {
            if (name[nth(j)] == name[x]) {
                ++repeats;
                break;
            }
        }
    }
    return repeats;
}

std::vector<std::string_view> TraceAssembly::laneCategories(const Lane &lane) const
{
    std::vector<model::StringId> ids;
    model::StringId last;
    for (const model::StringId cat : lane.cat) {
        if (cat == last || std::find(ids.begin(), ids.end(), cat) != ids.end())
            continue;
        if (ids.size() == Dialect::MaxLaneCategories)
            return {};
        ids.push_back(last = cat);
    }
    std::vector<std::string_view> out;
    out.reserve(ids.size());
    for (const model::StringId cat : ids)
        out.push_back(str(cat));
    return out;
}

void TraceAssembly::growAhead(const ChunkResult &chunk, const std::vector<std::uint32_t> &lanes)
{
    // Projected only for lists past 1 MiB: those are mapped blocks, where room not yet written
    // costs no memory. A projection that falls short is raised by half at least.
    constexpr std::size_t MinBytes = 1u << 20;
    if (m_expectedBytes == 0 || chunk.events.empty())
        return;
    const auto at =
        static_cast<std::uint64_t>(std::max<std::int64_t>(chunk.events.back().offset, 1));
    if (at >= m_expectedBytes)
        return;
    const double scale = static_cast<double>(m_expectedBytes) / static_cast<double>(at) * 1.05;
    const auto room = [scale](std::size_t size, std::size_t capacity, std::size_t bytesEach) {
        const auto projected = static_cast<std::size_t>(static_cast<double>(size) * scale) + 1;
        if (projected <= capacity || projected * bytesEach < MinBytes)
            return std::size_t {0};
        return std::max(projected, capacity + capacity / 2);
    };
    for (const std::uint32_t l : lanes) {
        Lane &lane = m_lanes[l];
        if (const std::size_t n = room(lane.ts.size(), lane.ts.capacity(), sizeof(std::int64_t)))
            lane.reserve(n);
    }
    if (const std::size_t n = room(m_flows.size(), m_flows.capacity(), sizeof(ChunkFlow)))
        m_flows.reserve(n);
}

} // namespace stepscope::import::chrometrace

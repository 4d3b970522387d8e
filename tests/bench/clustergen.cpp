// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "clustergen.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace stepscope::bench {

namespace {

namespace fs = std::filesystem;

constexpr std::int64_t GroupSize = 8;

/// Deterministic jitter in [-1, 1).
double jitter(std::int64_t rank, std::int64_t step, int salt)
{
    std::uint64_t x = static_cast<std::uint64_t>(rank) * 0x9E3779B97F4A7C15ull
        ^ static_cast<std::uint64_t>(step + 1) * 0xC2B2AE3D27D4EB4Full
        ^ static_cast<std::uint64_t>(salt) * 0x165667B19E3779F9ull;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 32;
    return static_cast<double>(x % 2000000) / 1000000.0 - 1.0;
}

struct Row
{
    double computing, cno, overlapped, free, bubble;
};

Row rowFor(std::int64_t rank, std::int64_t step, bool secondStage)
{
    Row r {};
    r.computing = (secondStage ? 79900.0 : 75400.0) * (1.0 + 0.005 * jitter(rank, step, 1));
    if (rank % 97 == 96)
        r.computing *= 1.2;
    r.overlapped = 7400.0 * (1.0 + 0.05 * jitter(rank, step, 2));
    r.bubble = secondStage ? 180000.0 * (1.0 + 0.02 * jitter(rank, step, 3)) : 0.0;
    r.cno = (secondStage ? 36000.0 : 150000.0) * (1.0 + 0.04 * jitter(rank, step, 4)) + r.bubble;
    r.free = (secondStage ? 85000.0 : 68000.0) * (1.0 + 0.05 * jitter(rank, step, 5));
    return r;
}

std::string num(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.15g", v);
    return buf;
}

std::string tuple(std::int64_t first, std::int64_t count)
{
    std::string s = "(";
    for (std::int64_t i = 0; i < count; ++i)
        s += (i ? ", " : "") + std::to_string(first + i);
    return s + ")";
}

std::uint64_t writeSteps(const fs::path &dir, const ClusterShape &shape, std::int64_t half)
{
    std::ofstream f(dir / "cluster_step_trace_time.csv", std::ios::binary);
    f << "Step,Type,Index,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,"
         "Stage,Bubble,Communication(Not Overlapped and Exclude Receive)\n";
    for (std::int64_t s = 0; s < shape.steps; ++s) {
        const std::int64_t step = s + 2;
        std::vector<Row> rows;
        rows.reserve(static_cast<std::size_t>(shape.ranks));
        for (std::int64_t r = 0; r < shape.ranks; ++r) {
            const Row x = rowFor(r, s, half > 0 && r >= half);
            rows.push_back(x);
            const double stage = x.computing + x.cno + x.free - x.bubble;
            f << step << ",rank," << r << ',' << num(x.computing) << ',' << num(x.cno) << ','
              << num(x.overlapped) << ',' << num(x.cno + x.overlapped) << ',' << num(x.free) << ','
              << num(stage) << ',' << num(x.bubble) << ',' << num(x.cno - x.bubble) << '\n';
        }
        // Stage rows: the column maxima over the stage's ranks (docs/formats.md §2.4).
        for (std::int64_t st = 0; st < (half > 0 ? 2 : 1); ++st) {
            const std::int64_t first = st == 0 ? 0 : half;
            const std::int64_t last = half > 0 && st == 0 ? half : shape.ranks;
            Row m {};
            double stageMax = 0;
            for (std::int64_t r = first; r < last; ++r) {
                const Row &x = rows[static_cast<std::size_t>(r)];
                m.computing = std::max(m.computing, x.computing);
                m.cno = std::max(m.cno, x.cno);
                m.overlapped = std::max(m.overlapped, x.overlapped);
                m.free = std::max(m.free, x.free);
                m.bubble = std::max(m.bubble, x.bubble);
                stageMax = std::max(stageMax, x.computing + x.cno + x.free - x.bubble);
            }
            f << step << ",stage,\"" << tuple(first, last - first) << "\"," << num(m.computing)
              << ',' << num(m.cno) << ',' << num(m.overlapped) << ',' << num(m.cno + m.overlapped)
              << ',' << num(m.free) << ',' << num(stageMax) << ',' << num(m.bubble) << ','
              << num(m.cno - m.bubble) << '\n';
        }
    }
    return static_cast<std::uint64_t>(f.tellp());
}

std::string timeInfo(double elapse, double transit, double wait)
{
    return "{\"Communication Time Info\": {\"Start Timestamp(us)\": 1695000000000000.0, "
           "\"Elapse Time(ms)\": "
        + num(elapse) + ", \"Transit Time(ms)\": " + num(transit)
        + ", \"Wait Time(ms)\": " + num(wait) + ", \"Synchronization Time(ms)\": " + num(wait * 0.9)
        + ", \"Idle Time(ms)\": 0.5, \"Wait Time Ratio\": " + num(wait / (wait + transit))
        + ", \"Synchronization Time Ratio\": 0.5}, \"Communication Bandwidth Info\": {\"HCCS\": "
          "{\"Transit Size(MB)\": 64.0, \"Transit Time(ms)\": "
        + num(transit) + ", \"Bandwidth(GB/s)\": " + num(64.0 / transit)
        + ", \"Large Packet Ratio\": 1.0, \"Size Distribution\": {\"4.0\": [16, " + num(transit)
        + "]}}}}";
}

std::uint64_t writeCommunication(const fs::path &dir, const ClusterShape &shape)
{
    std::ofstream f(dir / "cluster_communication.json", std::ios::binary);
    std::ofstream m(dir / "cluster_communication_matrix.json", std::ios::binary);
    f << "{";
    m << "{";
    const std::int64_t groups = (shape.ranks + GroupSize - 1) / GroupSize;
    for (std::int64_t g = 0; g < groups; ++g) {
        const std::int64_t first = g * GroupSize;
        const std::int64_t count = std::min(GroupSize, shape.ranks - first);
        const std::string key = "\"" + tuple(first, count) + "\"";
        f << (g ? ",\n" : "\n") << key << ": {";
        m << (g ? ",\n" : "\n") << key << ": {";
        for (std::int64_t s = 0; s < shape.steps; ++s) {
            const std::string op = "\"hcom_allReduce__" + std::to_string(g) + "_"
                + std::to_string(s) + "_1@" + std::to_string(1000003 * (g + 1)) + "\"";
            f << (s ? ", " : "") << "\"step" << s + 2 << "\": {" << op << ": {";
            m << (s ? ", " : "") << "\"step" << s + 2 << "\": {" << op << ": {";
            for (std::int64_t i = 0; i < count; ++i) {
                const std::int64_t r = first + i;
                const double transit = 3.0 * (1.0 + 0.1 * jitter(r, s, 6));
                const double wait = 20.0 * (1.0 + 0.5 * jitter(r, s, 7));
                f << (i ? ", " : "") << "\"" << r
                  << "\": " << timeInfo(transit + wait, transit, wait);
                const std::int64_t dst = first + (i + 1) % count;
                m << (i ? ", " : "") << "\"" << r << "-" << dst
                  << "\": {\"Transport Type\": \"HCCS\", \"Transit Time(ms)\": " << num(transit)
                  << ", \"Transit Size(MB)\": 64.0, \"Bandwidth(GB/s)\": " << num(64.0 / transit)
                  << "}";
            }
            f << "}}";
            m << "}}";
        }
        f << "}";
        m << "}";
    }
    f << "\n}\n";
    m << "\n}\n";
    return static_cast<std::uint64_t>(f.tellp()) + static_cast<std::uint64_t>(m.tellp());
}

std::uint64_t writeGroups(const fs::path &dir, const ClusterShape &shape, std::int64_t half)
{
    std::ofstream f(dir / "communication_group.json", std::ios::binary);
    auto list = [&](std::int64_t first, std::int64_t count) {
        std::string s = "[";
        for (std::int64_t i = 0; i < count; ++i)
            s += (i ? ", " : "") + std::to_string(first + i);
        return s + "]";
    };
    f << "{\"collective\": [";
    const std::int64_t groups = (shape.ranks + GroupSize - 1) / GroupSize;
    for (std::int64_t g = 0; g < groups; ++g)
        f << (g ? ", " : "")
          << list(g * GroupSize, std::min(GroupSize, shape.ranks - g * GroupSize));
    f << "], \"p2p\": [";
    if (half > 0)
        f << list(0, half) << ", " << list(half, shape.ranks - half);
    else
        f << list(0, shape.ranks);
    f << "]}\n";
    return static_cast<std::uint64_t>(f.tellp());
}

} // namespace

std::uint64_t writeClusterFolder(const fs::path &root, const ClusterShape &shape)
{
    const fs::path dir = root / "cluster_analysis_output";
    fs::create_directories(dir);
    const std::int64_t half = shape.ranks >= 2 ? shape.ranks / 2 : 0;
    return writeSteps(dir, shape, half) + writeCommunication(dir, shape)
        + writeGroups(dir, shape, half);
}

} // namespace stepscope::bench

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
//
// Device memory of an Nsight Systems export (docs/formats.md §12.4): the
// CUDA_GPU_MEMORY_USAGE_EVENTS table, written only with `--cuda-memory-usage=true`. Each row
// is an allocation (memoryOperationType 0) or a free (1, ENUM_CUDA_DEV_MEM_EVENT_OPER) of
// `bytes` at `address` on a GPU. They become one `CUDA` curve per GPU (`cuda:<id>`, the
// running total of allocated bytes, as the Kineto reader's curves) and one Allocation per
// alloc/free pair. Without the table there is no memory curve (cudaMalloc/cudaFree rows
// carry no sizes).

#include "import/sqlite/tablescan.h"
#include "nsysdb.h"
#include "util/saturate.h"

#include <map>

namespace stepscope::import::nsys {

namespace {

using sqlite::TablePresence;
using sqlite::TableScan;

struct DeviceMemory
{
    std::size_t curve = 0;
    std::int64_t total = 0;
    /// Live blocks by address: (size, index into allocations).
    std::unordered_map<std::int64_t, std::pair<std::int64_t, std::size_t>> live;
};

} // namespace

void readGpuMemory(NsysDb &p)
{
    sqlite::IdStrings operations;
    operations.load(
        p.db, p.ctx, "ENUM_CUDA_DEV_MEM_EVENT_OPER", "id", "name", TablePresence::Optional);
    auto isFree = [&](std::int64_t op) {
        const std::string_view n = operations.text(op);
        return n.empty() ? op == 1 : n.find("DEALLOC") != std::string_view::npos;
    };
    TableScan s(p.db, p.ctx, "CUDA_GPU_MEMORY_USAGE_EVENTS",
        {{"start"}, {"deviceId"}, {"address"}, {"bytes"}, {"memoryOperationType"}, {"name", false},
            {"globalPid", false}},
        "ORDER BY start", TablePresence::Optional);
    model::MemoryData &memory = p.out.trace().memory;
    std::map<std::int64_t, DeviceMemory> devices;
    std::uint64_t unknownFrees = 0;
    while (s.next()) {
        const auto start = p.time(s.needInt(0));
        const auto device = s.needInt(1);
        const auto address = s.needInt(2);
        const auto bytes = s.needInt(3);
        const auto op = s.needInt(4);
        if (!start || !device || !address || !bytes || !op || !p.mine(s.int64(6)))
            continue;
        auto [it, added] = devices.try_emplace(*device);
        DeviceMemory &d = it->second;
        if (added) {
            d.curve = memory.curves.size();
            model::MemoryCurve curve;
            curve.component = "CUDA";
            curve.device = "cuda:" + std::to_string(*device);
            memory.curves.push_back(std::move(curve));
        }
        if (isFree(*op)) {
            const auto block = d.live.find(*address);
            if (block != d.live.end()) {
                d.total = util::satSub(d.total, block->second.first);
                memory.allocations[block->second.second].releasedNs = *start;
                d.live.erase(block);
            } else {
                ++unknownFrees; // allocated before the capture: never in the total
                continue;
            }
        } else {
            // A damaged `bytes` column cannot overflow the running total.
            d.total = util::satAdd(d.total, *bytes);
            model::Allocation a;
            a.op = s.isNull(5) ? std::string("cudaMalloc") : std::string(s.text(5));
            a.sizeBytes = *bytes;
            a.allocatedNs = *start;
            d.live[*address] = {*bytes, memory.allocations.size()};
            memory.allocations.push_back(std::move(a));
        }
        model::MemoryCurve &curve = memory.curves[d.curve];
        curve.timestampsNs.push_back(*start);
        curve.allocatedBytes.push_back(d.total);
    }
    if (unknownFrees > 0)
        p.ctx.info(p.db.path(),
            "table `CUDA_GPU_MEMORY_USAGE_EVENTS`: " + std::to_string(unknownFrees)
                + " frees of blocks allocated before the capture were ignored");
}

} // namespace stepscope::import::nsys

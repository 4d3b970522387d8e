// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The Kernels panel's and `summary --json` "kernels" lists of Ascend exports: the kernels
// kernel_details.csv lists plus the copies, the same for the text and the DB export of a job;
// HCCL's pieces and the stream waits are no kernels (tests/tools/check_ascend_kernels.py).

#include "analysis/analysissummary.h"
#include "import/loader.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <tuple>

using namespace stepscope;
using namespace stepscope::analysis;

namespace {

struct Listed
{
    std::int64_t count = 0;
    std::size_t names = 0;
    std::map<std::string, std::tuple<std::int64_t, model::Category>> byName;
};

/// Each rank's kernel list, by name: count and category.
std::map<std::int32_t, Listed> kernelLists(const std::string &sample)
{
    util::Progress progress;
    const auto r = import::loadPath(std::string(STEPSCOPE_TEST_DATA) + "/" + sample, progress);
    std::map<std::int32_t, Listed> out;
    if (!r.session)
        return out;
    const SessionAnalysis a = analyzeSession(*r.session, RunConfig {});
    for (const KernelSummary &k : a.kernels) {
        Listed &l = out[k.rank];
        l.count = k.count;
        l.names = k.nameCount;
        for (const auto &[name, s] : k.top)
            l.byName[name] = {s.count, s.category};
    }
    return out;
}

TEST(AscendKernels, TextAndDbExportsListTheSameKernels)
{
    for (const char *level : {"level0", "level2"}) {
        SCOPED_TRACE(level);
        const auto text = kernelLists(std::string("ascend_pt/msinsight-cnn-") + level + "-2rank");
        const auto db = kernelLists(std::string("ascend_db/msinsight-cnn-db-") + level + "-2rank");
        ASSERT_EQ(text.size(), 2u);
        ASSERT_EQ(db.size(), 2u);
        for (const auto &[rank, t] : text) {
            SCOPED_TRACE("rank " + std::to_string(rank));
            // kernel_details.csv's 187 kernels (4 more rows are the HCCL ops) + 24 copies.
            EXPECT_EQ(t.count, 211);
            EXPECT_EQ(t.names, 79u);
            EXPECT_EQ(t.byName.count("Notify Wait"), 0u);
            EXPECT_EQ(t.byName.count("EVENT_WAIT"), 0u);
            ASSERT_EQ(t.byName.count("MEMCPY_ASYNC"), 1u);
            EXPECT_EQ(t.byName.at("MEMCPY_ASYNC"),
                std::make_tuple(std::int64_t {24}, model::Category::Memcpy));
            ASSERT_EQ(t.byName.count("aclnnDropoutGenMaskV2_DSAGenBitMask_DSAGenBitMask"), 1u);
            EXPECT_EQ(t.byName.at("aclnnDropoutGenMaskV2_DSAGenBitMask_DSAGenBitMask"),
                std::make_tuple(std::int64_t {2}, model::Category::Compute));
            EXPECT_EQ(t.byName, db.at(rank).byName);
        }
    }
}

/// torch_npu of early 2024 typed every AI core task `Other`: 274 of them, and 2 AI_CPU.
TEST(AscendKernels, TasksTypedOtherAreKernels)
{
    const auto lists = kernelLists("ascend_pt/mstt-advisor-fragments");
    ASSERT_EQ(lists.size(), 1u);
    const Listed &l = lists.begin()->second;
    EXPECT_EQ(l.count, 276);
    EXPECT_EQ(l.names, 93u);
    ASSERT_EQ(l.byName.count("aclnnInplaceMuls_MulAiCore_Mul"), 1u);
    EXPECT_EQ(l.byName.at("aclnnInplaceMuls_MulAiCore_Mul"),
        std::make_tuple(std::int64_t {20}, model::Category::Compute));
}

} // namespace

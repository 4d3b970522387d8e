// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Shared by the ascend_*_test.cpp files: an ImportContext rooted at tests/data, and a temp
// folder for malformed variants written by the tests.

#include "import/importcontext.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace stepscope::testsupport {

inline std::filesystem::path ascendData(const std::string &rel)
{
    return std::filesystem::path(STEPSCOPE_TEST_DATA) / "ascend_pt" / rel;
}

class AscendFixture : public ::testing::Test
{
protected:
    void SetUp() override
    {
        const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
        m_tmp = std::filesystem::temp_directory_path()
            / ("stepscope_" + std::string(info->test_suite_name()) + "_" + info->name());
        std::filesystem::remove_all(m_tmp);
        std::filesystem::create_directories(m_tmp);
        m_ctx.root = std::filesystem::path(STEPSCOPE_TEST_DATA) / "ascend_pt";
        m_ctx.report = &m_report;
        m_ctx.progress = &m_progress;
    }
    void TearDown() override
    {
        std::error_code ec;
        std::filesystem::remove_all(m_tmp, ec);
    }

    /// Writes a malformed variant into the temp folder; diagnostics then name it relative to
    /// the temp folder.
    std::filesystem::path writeTemp(const std::string &name, const std::string &content)
    {
        m_ctx.root = m_tmp;
        const std::filesystem::path p = m_tmp / name;
        std::filesystem::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary) << content;
        return p;
    }

    std::filesystem::path m_tmp;
    model::LoadReport m_report;
    util::Progress m_progress;
    import::ImportContext m_ctx;
};

} // namespace stepscope::testsupport

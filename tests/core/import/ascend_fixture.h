// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Shared by the ascend_*_test.cpp files: an ImportContext rooted at tests/data, and a temp
// folder for malformed variants written by the tests.

#include "import_fixture.h"

#include <filesystem>
#include <string>

namespace stepscope::testsupport {

inline std::filesystem::path ascendData(const std::string &rel)
{
    return std::filesystem::path(STEPSCOPE_TEST_DATA) / "ascend_pt" / rel;
}

class AscendFixture : public ImportFixture
{
protected:
    void SetUp() override
    {
        ImportFixture::SetUp();
        m_ctx.root = std::filesystem::path(STEPSCOPE_TEST_DATA) / "ascend_pt";
    }

    /// Writes a malformed variant into the temp folder; diagnostics then name it relative to
    /// the temp folder.
    std::filesystem::path writeTemp(const std::string &name, const std::string &content)
    {
        m_ctx.root = m_tmp;
        const std::filesystem::path p = m_tmp / name;
        std::filesystem::create_directories(p.parent_path());
        writeFile(p, content);
        return p;
    }
};

} // namespace stepscope::testsupport

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// The fixture the Ascend and SQLite importer tests share (ascend_fixture.h,
// sqlitedb_fixture.h): a temporary folder (TempDirTest) and an ImportContext rooted in it,
// with its own report and progress.

#include "chrometrace_testutil.h"
#include "import/importcontext.h"

namespace stepscope::testsupport {

class ImportFixture : public TempDirTest
{
protected:
    void SetUp() override
    {
        TempDirTest::SetUp();
        m_ctx.root = m_tmp;
        m_ctx.report = &m_report;
        m_ctx.progress = &m_progress;
    }

    model::LoadReport m_report;
    util::Progress m_progress;
    import::ImportContext m_ctx;
};

} // namespace stepscope::testsupport

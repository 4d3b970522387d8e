// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Panels show the load's analysis (SessionAnalysis); the tests hand them one as the loader
// does: analyzeSession over the session with an empty run config.
#pragma once

#include "analysis/analysissummary.h"
#include "analysis/kpis.h"
#include "model/session.h"

#include <memory>
#include <utility>

namespace stepscope::uitest {

/// panel.setAnalysis(session, the analysis of session); a null session gives a null analysis.
template <typename Panel>
void setAnalysed(Panel &panel, std::shared_ptr<const model::Session> session)
{
    std::shared_ptr<const analysis::SessionAnalysis> analysed;
    if (session)
        analysed = std::make_shared<const analysis::SessionAnalysis>(
            analysis::analyzeSession(*session, analysis::RunConfig {}));
    panel.setAnalysis(std::move(session), std::move(analysed));
}

} // namespace stepscope::uitest

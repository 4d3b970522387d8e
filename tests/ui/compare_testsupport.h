// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The demo pair (ResNet-50, DataLoader num_workers 0 vs 4) loaded once for the compare tests.
#pragma once

#include "import/loader.h"
#include "ui/compare/comparedata.h"
#include "ui/timeline/timelinemodel.h"
#include "util/progress.h"

#include <QString>

#include <filesystem>
#include <memory>
#include <string>

namespace stepscope::testsupport {

inline std::string demoPairDir()
{
    return std::string(STEPSCOPE_TEST_DATA) + "/kineto/kineto-resnet50-dataloader-workers0-vs-4/";
}

inline ui::LoadedProfile loadProfile(const std::string &path)
{
    util::Progress progress;
    ui::LoadedProfile p;
    p.path = QString::fromStdString(path);
    p.session = import::loadPath(std::filesystem::path(path), progress).session;
    if (p.session)
        p = ui::prepareProfile(p.path, p.session); // what the loader's worker does
    return p;
}

/// The demo pair analysed (no training logs: the demo has none).
inline std::shared_ptr<const ui::compare::CompareData> demoPair()
{
    static const std::shared_ptr<const ui::compare::CompareData> data =
        ui::compare::CompareData::build(loadProfile(demoPairDir() + "resnet50_num_workers_0"),
            loadProfile(demoPairDir() + "resnet50_num_workers_4"), false);
    return data;
}

} // namespace stepscope::testsupport

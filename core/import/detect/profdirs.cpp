// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "profdirs.h"

#include "import/detect/dirwalk.h"
#include "util/joinfirst.h"

#include <algorithm>
#include <regex>

namespace stepscope::import::detect {

namespace fs = std::filesystem;

namespace {

/// The raw data folders the profiler writes into a PROF folder before any parse.
std::vector<std::string> rawDataIn(const fs::path &profDir)
{
    std::vector<std::string> raw;
    for (const fs::path &p : listDir(profDir)) {
        const std::string name = p.filename().string();
        if ((deviceNumber(name) >= 0 || name == "host") && isDir(p / "data"))
            raw.push_back(name + "/data/");
    }
    return raw;
}

} // namespace

bool isProfDirName(const std::string &name)
{
    static const std::regex re(R"(PROF_\d+_\d+_[A-Za-z]+)");
    return std::regex_match(name, re);
}

std::int32_t deviceNumber(const std::string &name)
{
    static const std::regex re(R"(device_(\d+))");
    std::smatch m;
    if (!std::regex_match(name, m, re))
        return -1;
    try {
        return static_cast<std::int32_t>(std::stol(m[1].str()));
    } catch (...) {
        return -1;
    }
}

bool isProfDeviceDir(const fs::path &dir)
{
    if (deviceNumber(dir.filename().string()) < 0 || !isDir(dir / "timeline"))
        return false;
    for (const fs::path &p : listDir(dir / "timeline")) {
        const std::string name = p.filename().string();
        if (name.rfind("msprof_", 0) == 0 && endsWith(name, ".json") && isFile(p))
            return true;
    }
    return false;
}

std::vector<fs::path> profExportTimelines(const fs::path &profDir)
{
    std::vector<fs::path> files;
    const fs::path out = profDir / "mindstudio_profiler_output";
    if (!isDir(out))
        return files;
    for (const fs::path &p : listDir(out)) {
        const std::string name = p.filename().string();
        if (name.rfind("msprof", 0) == 0 && endsWith(name, ".json") && isFile(p))
            files.push_back(p);
    }
    std::sort(files.begin(), files.end());
    return files;
}

bool isProfDir(const fs::path &dir)
{
    if (isProfDirName(dir.filename().string()) || !profExportTimelines(dir).empty())
        return true;
    const std::vector<fs::path> children = listDir(dir);
    if (std::any_of(children.begin(), children.end(), isProfDeviceDir))
        return true;
    // A renamed raw PROF folder: a device folder holding data/ (host/data/ alone is too
    // common a name to tell).
    return std::any_of(children.begin(), children.end(), [](const fs::path &p) {
        return deviceNumber(p.filename().string()) >= 0 && isDir(p / "data");
    });
}

void addProfDevices(const fs::path &profDir, std::vector<ProfDevice> &out, UnreadProf &unread,
    std::vector<std::pair<fs::path, std::string>> &skipped)
{
    std::vector<ProfDevice> exported;
    std::vector<fs::path> raw;
    for (const fs::path &p : listDir(profDir)) {
        const std::int32_t n = deviceNumber(p.filename().string());
        if (n < 0 || !isDir(p))
            continue;
        if (isProfDeviceDir(p))
            exported.push_back(ProfDevice {p, n, {}});
        else
            raw.push_back(p);
    }
    if (exported.empty()) {
        // A newer export: one timeline for the PROF folder, beside the raw device folders.
        if (!profExportTimelines(profDir).empty()) {
            ProfDevice dev {profDir, 0, profDir / "mindstudio_profiler_output"};
            std::sort(raw.begin(), raw.end(), [](const fs::path &a, const fs::path &b) {
                return deviceNumber(a.filename().string()) < deviceNumber(b.filename().string());
            });
            if (!raw.empty())
                dev.device = deviceNumber(raw.front().filename().string());
            if (raw.size() == 1)
                dev.dir = raw.front();
            out.push_back(std::move(dev));
            return;
        }
        unread.dirs.push_back(profDir);
        return;
    }
    out.insert(out.end(), exported.begin(), exported.end());
    for (const fs::path &p : raw)
        skipped.emplace_back(p,
            "this device folder holds no timeline/msprof_*.json (raw data only, never "
            "exported), unlike the other devices of its PROF folder: export it with `msprof "
            "--export=on --output="
                + p.string() + "`");
    // Exported twice (by an older and a newer msprof): the same events, read once.
    if (!profExportTimelines(profDir).empty())
        skipped.emplace_back(profDir / "mindstudio_profiler_output",
            "the PROF folder's newer export of the same data; its device_<n>/timeline/ export "
            "was read instead, so no event counts twice. Open this folder to see it");
}

std::string unreadProfReason(const fs::path &dir)
{
    // A device folder opened alone: the advice is for its PROF folder.
    const fs::path profDir =
        deviceNumber(dir.filename().string()) >= 0 && isProfDir(dir.parent_path())
        ? dir.parent_path()
        : dir;
    const fs::path run = profDir.parent_path();
    const std::string name = profDir.string();
    std::vector<std::string> raw = rawDataIn(profDir);
    const bool framework = isDir(run / "FRAMEWORK") || isDir(profDir / "FRAMEWORK");
    if (isDir(profDir / "FRAMEWORK"))
        raw.emplace_back("FRAMEWORK/");
    else if (isDir(run / "FRAMEWORK"))
        raw.emplace_back("../FRAMEWORK/");
    const std::string what = raw.empty() ? std::string() : " (" + util::joinFirst(raw, 3) + ")";
    if (framework) {
        // torch_npu and MindSpore >= 2.3 write FRAMEWORK/ beside the PROF folder and parse
        // both into ASCEND_PROFILER_OUTPUT/ when the profiler stops, unless told not to.
        const std::string runName = run.filename().string();
        const bool mindspore = endsWith(runName, "_ascend_ms");
        return name + " holds raw profiling data" + what
            + " that was never parsed (no ASCEND_PROFILER_OUTPUT/ beside it): parse it offline "
              "with "
            + (mindspore ? "`mindspore.Profiler.offline_analyse(\"" + run.string() + "\")`"
                         : "`torch_npu.profiler.profiler.analyse(\"" + run.string() + "\")`")
            + ", then open " + run.string();
    }
    if (isDir(profDir / "mindstudio_profiler_output"))
        return name
            + " holds msprof's exported summaries (mindstudio_profiler_output/) but no timeline "
              "(msprof_*.json) among them, and no device_<n>/timeline/ export: export the "
              "database with `msprof --export=on --type=db --output="
            + name + "` and open the msprof_*.db it writes";
    return name + " holds only raw CANN profiling data" + what
        + ", never parsed into an export StepScope reads: parse it offline with `msprof "
          "--export=on --output="
        + name
        + "` (where msprof takes `--type=db`, add it and open the msprof_*.db it writes; "
          "older versions write the device_<n>/timeline/ files read here), then open the "
          "folder again";
}

} // namespace stepscope::import::detect

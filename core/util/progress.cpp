// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "progress.h"

namespace stepscope::util {

void Progress::setStage(std::string stage)
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stage = std::move(stage);
    }
    report(true);
}

void Progress::advance(std::uint64_t bytes)
{
    m_done.fetch_add(bytes, std::memory_order_relaxed);
    report(false);
}

void Progress::report(bool force)
{
    if (!m_callback)
        return;
    std::string stage;
    std::uint64_t done = 0;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        const auto now = std::chrono::steady_clock::now();
        done = m_done.load();
        const std::uint64_t total = m_total.load();
        const bool onePercent = total > 0 && (done - m_lastDone) * 100 >= total;
        if (!force && !onePercent && now - m_lastReport < std::chrono::milliseconds(50))
            return;
        m_lastReport = now;
        m_lastDone = done;
        stage = m_stage;
    }
    m_callback(stage, done, m_total.load());
}

} // namespace stepscope::util

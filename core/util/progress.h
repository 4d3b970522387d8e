// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

namespace stepscope::util {

/// Set from any thread (the GUI's Cancel button); importers poll it between chunks.
class CancelToken
{
public:
    void cancel() { m_cancelled.store(true, std::memory_order_relaxed); }
    bool isCancelled() const { return m_cancelled.load(std::memory_order_relaxed); }

private:
    std::atomic<bool> m_cancelled {false};
};

/// Thrown inside importers only, to unwind a cancelled load; the loader catches it.
struct Cancelled
{
};

/// Receives load progress: bytes done over bytes total for the whole folder, and a stage
/// name ("Reading trace_view.json"). Callbacks run on importer threads and are throttled to
/// at most one per 1 % or 50 ms. Thread-safe: parallel chunk workers call advance().
class Progress
{
public:
    using Callback =
        std::function<void(const std::string &stage, std::uint64_t done, std::uint64_t total)>;

    Progress() = default;
    explicit Progress(Callback callback, const CancelToken *cancel = nullptr)
        : m_callback(std::move(callback))
        , m_cancel(cancel)
    {
    }

    void setTotal(std::uint64_t total) { m_total.store(total); }
    std::uint64_t total() const { return m_total.load(); }
    std::uint64_t done() const { return m_done.load(); }
    void setStage(std::string stage);
    void advance(std::uint64_t bytes);
    /// Throws Cancelled when the token was set: call between chunks.
    void checkCancel() const
    {
        if (isCancelled())
            throw Cancelled {};
    }
    bool isCancelled() const { return m_cancel && m_cancel->isCancelled(); }

private:
    void report(bool force);

    Callback m_callback;
    const CancelToken *m_cancel = nullptr;
    std::atomic<std::uint64_t> m_total {0};
    std::atomic<std::uint64_t> m_done {0};
    std::mutex m_mutex; // guards m_stage, m_lastReport, m_lastDone
    std::string m_stage;
    std::chrono::steady_clock::time_point m_lastReport {};
    std::uint64_t m_lastDone = 0;
};

} // namespace stepscope::util

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "argscollector.h"

#include <utility>

namespace stepscope::import::chrometrace {

ArgsCollector::ArgsCollector(model::ArgsTable &target)
    : m_target(target)
{
    m_thread = std::thread([this] { run(); });
}

ArgsCollector::~ArgsCollector()
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
        m_queue.clear();
    }
    m_work.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

void ArgsCollector::push(model::ArgsTable &&table)
{
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        // A short queue: a collector that falls behind slows the reader down instead of
        // holding more chunks' args in memory.
        m_space.wait(lock, [&] { return m_error || m_exited || m_queue.size() < MaxQueued; });
        if (m_error || m_exited)
            return; // finish() reports the error; what comes after is never appended
        m_queue.push_back(std::move(table));
    }
    m_work.notify_one();
}

void ArgsCollector::finish()
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_done = true;
    }
    m_work.notify_all();
    if (m_thread.joinable())
        m_thread.join();
    if (m_error)
        std::rethrow_exception(std::exchange(m_error, nullptr));
}

void ArgsCollector::run()
{
    for (;;) {
        model::ArgsTable table;
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            m_work.wait(lock, [&] { return m_stop || m_done || !m_queue.empty(); });
            if (m_stop || (m_queue.empty() && m_done)) {
                m_exited = true;
                m_space.notify_all();
                return;
            }
            table = std::move(m_queue.front());
            m_queue.pop_front();
        }
        m_space.notify_one();
        try {
            m_target.merge(table);
        } catch (...) {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_error = std::current_exception();
            m_queue.clear();
            m_space.notify_all();
            return;
        }
    }
}

} // namespace stepscope::import::chrometrace

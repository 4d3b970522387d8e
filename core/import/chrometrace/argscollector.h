// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "model/argstable.h"

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

namespace stepscope::import::chrometrace {

/// Appends the chunks' args tables to one table on a thread of its own, in the order they
/// are pushed, so that copying every event's args text (and growing the arena) stays off the
/// reading thread, which is the serial stage of the load. Entry k of the i-th pushed table
/// becomes entry (entries pushed before it) + k of the target, as ArgsTable::merge numbers
/// them.
///
/// The target must not be touched between the first push() and finish(). The destructor
/// stops and joins the thread (also while Cancelled unwinds); what was not appended is
/// dropped then.
class ArgsCollector
{
public:
    explicit ArgsCollector(model::ArgsTable &target);
    ~ArgsCollector();
    ArgsCollector(const ArgsCollector &) = delete;
    ArgsCollector &operator=(const ArgsCollector &) = delete;

    void push(model::ArgsTable &&table);
    /// Waits until everything pushed is appended and joins the thread; rethrows what the
    /// thread threw (std::bad_alloc).
    void finish();

private:
    void run();

    static constexpr std::size_t MaxQueued = 4;

    model::ArgsTable &m_target;
    std::mutex m_mutex;
    std::condition_variable m_work; // queue not empty, or done / stop
    std::condition_variable m_space; // queue below MaxQueued, or the thread ended
    std::deque<model::ArgsTable> m_queue;
    bool m_done = false; // no more pushes: drain, then stop
    bool m_stop = false; // stop now
    bool m_exited = false; // run() returned
    std::exception_ptr m_error;
    std::thread m_thread;
};

} // namespace stepscope::import::chrometrace

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "timelinemodel.h"

#include <QTextBrowser>

#include <memory>

namespace stepscope::ui::timeline {

/// Details of the selected event: name, category, rank, process, thread / stream, start,
/// duration, step, its args, and its incoming and outgoing flows as links that jump to the
/// other end (jumpRequested).
class DetailsPane : public QTextBrowser
{
    Q_OBJECT

public:
    explicit DetailsPane(QWidget *parent = nullptr);

    void setModel(std::shared_ptr<const TimelineModel> model);
    void showEvent(const EventKey &event); ///< invalid key: nothing selected
    /// The HTML shown for an event (tests read it).
    static QString describe(const TimelineModel &model, const EventKey &event);

signals:
    void jumpRequested(const stepscope::ui::timeline::EventKey &event);

private:
    std::shared_ptr<const TimelineModel> m_model;
};

} // namespace stepscope::ui::timeline

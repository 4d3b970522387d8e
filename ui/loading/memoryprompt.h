// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "import/loader.h"
#include "import/memorybudget.h"

#include <QString>

#include <functional>

class QMessageBox;
class QWidget;

namespace stepscope::ui {

/// Asks what to open when the memory budget refused `path` (docs/robustness.md "Memory
/// budget"): the ranks that fit (when the profile has several and some fit), everything
/// anyway, or nothing. Window-modal and non-blocking (QMessageBox::open); `choose` gets the
/// options to load with (`asked` with the ranks or without the check) and is not called on
/// Cancel. The box deletes itself when closed; its object name is "memoryBudgetPrompt".
QMessageBox *askWhatToOpen(QWidget *parent, const QString &path, const import::MemoryBudget &budget,
    const import::LoadOptions &asked, std::function<void(const import::LoadOptions &)> choose);

} // namespace stepscope::ui

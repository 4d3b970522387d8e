// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <QString>

class QWidget;

namespace stepscope::ui {

/// Help › About as Markdown: the version, the Qt version built against and running, the
/// project's licence and the licences of the bundled data (resources/demo/NOTICE.md and
/// tests/data/NOTICE.md, compiled in).
QString aboutMarkdown();
/// Shows aboutMarkdown() in a dialog.
void showAboutDialog(QWidget *parent);

} // namespace stepscope::ui

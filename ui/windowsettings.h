// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <QSize>
#include <QString>

#include <string>

class QMainWindow;

/// What the window keeps between launches (QSettings, organisation and application
/// "StepScope"): geometry and dock layout, the last folder of each file dialog, the export
/// defaults and the run-config values last entered. One place for the keys.
namespace stepscope::ui::settings {

/// Saves the window's geometry and its docks' and toolbars' state; `withProfile`: a profile
/// was shown, so the docks' sizes are ones the user saw with panels to read (a layout kept
/// from the welcome page keeps its docks but not their low height).
void saveWindowLayout(const QMainWindow &window, bool withProfile = false);
/// Whether the kept layout was saved with a profile shown.
bool keptLayoutHadProfile();
/// Restores what saveWindowLayout() kept; false when nothing (or something unusable) was
/// kept, and the window is left as it is.
bool restoreWindowLayout(QMainWindow &window);
/// Forgets the kept layout (View › Reset layout).
void clearWindowLayout();

/// The folder the file dialog for `purpose` ("open", "compare", "export") showed last; the
/// home folder at first.
QString lastFolder(const QString &purpose);
/// Remembers the folder of `path` (a folder, or a file whose folder is kept).
void setLastFolder(const QString &purpose, const QString &path);

/// File › Export View's last choices.
struct ExportDefaults
{
    double scale = 1.0;
    QString format = QStringLiteral("png"); ///< "png" or "svg"
    QSize size; ///< invalid: the size of the view
};
ExportDefaults exportDefaults();
void setExportDefaults(const ExportDefaults &defaults);

/// The run config last accepted in the dialog, as stepscope.json text ("" when none): it
/// pre-fills the dialog for a profile without its own stepscope.json.
std::string runConfigDefaults();
void setRunConfigDefaults(const std::string &json);

} // namespace stepscope::ui::settings

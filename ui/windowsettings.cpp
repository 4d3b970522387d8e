// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "windowsettings.h"

#include <QDir>
#include <QFileInfo>
#include <QMainWindow>
#include <QSettings>

namespace stepscope::ui::settings {

namespace {

const QString GeometryKey = QStringLiteral("window/geometry");
const QString StateKey = QStringLiteral("window/state");
const QString WithProfileKey = QStringLiteral("window/withProfile");
/// Bumped when the set of docks changes incompatibly: an old state is then ignored.
constexpr int StateVersion = 1;

} // namespace

void saveWindowLayout(const QMainWindow &window, bool withProfile)
{
    QSettings s;
    s.setValue(GeometryKey, window.saveGeometry());
    s.setValue(StateKey, window.saveState(StateVersion));
    s.setValue(WithProfileKey, withProfile);
}

bool keptLayoutHadProfile()
{
    return QSettings().value(WithProfileKey, false).toBool();
}

bool restoreWindowLayout(QMainWindow &window)
{
    const QSettings s;
    const QByteArray geometry = s.value(GeometryKey).toByteArray();
    const QByteArray state = s.value(StateKey).toByteArray();
    if (geometry.isEmpty() || state.isEmpty())
        return false;
    if (!window.restoreGeometry(geometry))
        return false;
    return window.restoreState(state, StateVersion);
}

void clearWindowLayout()
{
    QSettings s;
    s.remove(GeometryKey);
    s.remove(StateKey);
    s.remove(WithProfileKey);
}

QString lastFolder(const QString &purpose)
{
    const QString dir = QSettings().value(QStringLiteral("folders/") + purpose).toString();
    return !dir.isEmpty() && QFileInfo(dir).isDir() ? dir : QDir::homePath();
}

void setLastFolder(const QString &purpose, const QString &path)
{
    if (path.isEmpty())
        return;
    const QFileInfo info(path);
    const QString dir = info.isDir() ? info.absoluteFilePath() : info.absolutePath();
    QSettings().setValue(QStringLiteral("folders/") + purpose, dir);
}

ExportDefaults exportDefaults()
{
    const QSettings s;
    ExportDefaults d;
    const double scale = s.value(QStringLiteral("export/scale"), 1.0).toDouble();
    if (scale >= 0.5 && scale <= 4)
        d.scale = scale;
    const QString format = s.value(QStringLiteral("export/format")).toString();
    if (format == QLatin1String("svg") || format == QLatin1String("png"))
        d.format = format;
    const QSize size = s.value(QStringLiteral("export/size")).toSize();
    if (size.width() >= 64 && size.height() >= 64 && size.width() <= 16384
        && size.height() <= 16384)
        d.size = size;
    return d;
}

void setExportDefaults(const ExportDefaults &defaults)
{
    QSettings s;
    s.setValue(QStringLiteral("export/scale"), defaults.scale);
    s.setValue(QStringLiteral("export/format"), defaults.format);
    if (defaults.size.isValid())
        s.setValue(QStringLiteral("export/size"), defaults.size);
    else
        s.remove(QStringLiteral("export/size"));
}

std::string runConfigDefaults()
{
    return QSettings().value(QStringLiteral("runConfig/last")).toString().toStdString();
}

void setRunConfigDefaults(const std::string &json)
{
    QSettings().setValue(QStringLiteral("runConfig/last"), QString::fromStdString(json));
}

} // namespace stepscope::ui::settings

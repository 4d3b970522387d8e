// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "aboutdialog.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace stepscope::ui {

namespace {

QString resourceText(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("(%1 is missing from this build)").arg(path);
    return QString::fromUtf8(file.readAll());
}

/// A NOTICE file's headings one level down, under our own heading.
QString demoted(const QString &markdown)
{
    QString out = markdown;
    out.replace(QStringLiteral("\n#"), QStringLiteral("\n###"));
    if (out.startsWith(QLatin1Char('#')))
        out.prepend(QStringLiteral("##"));
    return out;
}

} // namespace

QString aboutMarkdown()
{
    QString text;
    text += QStringLiteral("# StepScope %1\n\n").arg(QStringLiteral(STEPSCOPE_VERSION));
    text += QStringLiteral("A desktop viewer for training profiles.\n\n");
    text += QStringLiteral("Built with Qt %1, running on Qt %2.\n\n")
                .arg(QStringLiteral(QT_VERSION_STR), QString::fromLatin1(qVersion()));
    text += QStringLiteral("StepScope is free software under the MIT licence. It uses Qt "
                           "(LGPL-3.0), simdjson (Apache-2.0), nlohmann/json (MIT) and zlib "
                           "(zlib licence).\n\n");
    text += QStringLiteral("## Bundled data\n\n");
    text += demoted(resourceText(QStringLiteral(":/stepscope/resources/demo/NOTICE.md")));
    text += QStringLiteral("\n\n");
    text += demoted(resourceText(QStringLiteral(":/stepscope/tests/data/NOTICE.md")));
    return text;
}

void showAboutDialog(QWidget *parent)
{
    QDialog dialog(parent);
    dialog.setWindowTitle(QObject::tr("About StepScope"));
    auto *layout = new QVBoxLayout(&dialog);
    auto *browser = new QTextBrowser(&dialog);
    browser->setOpenExternalLinks(true);
    browser->setMarkdown(aboutMarkdown());
    layout->addWidget(browser);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    layout->addWidget(buttons);
    dialog.resize(720, 560);
    dialog.exec();
}

} // namespace stepscope::ui

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "compare_testsupport.h"
#include "ui/compare/comparedialog.h"

#include <gtest/gtest.h>

#include <QDialogButtonBox>
#include <QPushButton>

using namespace stepscope;

TEST(CompareDialog, AcceptsTwoExistingDifferentProfiles)
{
    ui::compare::CompareDialog dialog;
    const QString b = QString::fromStdString(testsupport::demoPairDir() + "resnet50_num_workers_0");
    const QString a = QString::fromStdString(testsupport::demoPairDir() + "resnet50_num_workers_4");
    auto *ok = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
    EXPECT_FALSE(ok->isEnabled());
    dialog.setPaths(b, a);
    EXPECT_TRUE(dialog.isAcceptable());
    EXPECT_TRUE(ok->isEnabled());
    EXPECT_EQ(dialog.beforePath(), b);
    EXPECT_EQ(dialog.afterPath(), a);

    QString why;
    dialog.setPaths(b, b);
    EXPECT_FALSE(dialog.isAcceptable(&why));
    EXPECT_TRUE(why.contains(QStringLiteral("same")));
    EXPECT_FALSE(ok->isEnabled());
    dialog.setPaths(b, a + QStringLiteral("_missing"));
    EXPECT_FALSE(dialog.isAcceptable(&why));
    EXPECT_TRUE(why.contains(QStringLiteral("does not exist")));
}

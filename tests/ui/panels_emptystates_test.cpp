// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Issue 15, the r6 screenshot pass: what the panels show when a profile lacks their data
// (hta-ddp-a100-world2-nccl has neither memory records nor a communication matrix) holds
// no empty pickers and no text cut at the panel's edge.

#include "analysed.h"
#include "chartsupport.h"
#include "import/loader.h"
#include "ui/panels/communicationpanel.h"
#include "ui/panels/memorypanel.h"
#include "ui/panels/trainingpanel.h"

#include <gtest/gtest.h>

#include <QAbstractTextDocumentLayout>
#include <QComboBox>
#include <QLabel>
#include <QTextDocument>
#include <QTextOption>

using namespace stepscope;
using namespace stepscope::ui;

namespace {

std::shared_ptr<const model::Session> loadSample(const std::string &relative)
{
    util::Progress progress;
    return import::loadPath(std::string(STEPSCOPE_TEST_DATA) + "/" + relative, progress).session;
}

/// The widest line of `label`'s rich text laid out at the label's width, as QLabel lays it
/// out: wider than the room means a word that cannot break runs past the edge and is cut.
qreal widestLine(const QLabel &label)
{
    QTextDocument doc;
    doc.setDefaultFont(label.font());
    doc.setDocumentMargin(0);
    QTextOption option = doc.defaultTextOption();
    option.setWrapMode(QTextOption::WordWrap); // QLabel's: only between words
    doc.setDefaultTextOption(option);
    doc.setHtml(label.text());
    doc.setTextWidth(label.contentsRect().width() - 2 * label.margin());
    return doc.idealWidth();
}

} // namespace

TEST(EmptyStates, MemoryWithoutRecordsShowsNoEmptyAllocatorPicker)
{
    const auto session = loadSample("kineto/hta-ddp-a100-world2-nccl");
    ASSERT_TRUE(session);
    MemoryPanel panel;
    uitest::setAnalysed(panel, session);
    uitest::showAndSettle(panel, 1200, 400);
    for (QLabel *label : panel.findChildren<QLabel *>()) {
        if (label->text() == QStringLiteral("Allocator:")) {
            EXPECT_FALSE(label->isVisibleTo(&panel));
        }
    }
    for (QComboBox *box : panel.findChildren<QComboBox *>()) {
        if (box->isVisibleTo(&panel)) {
            EXPECT_GT(box->count(), 0) << "an empty picker is shown";
        }
    }
}

TEST(EmptyStates, TheNoMatrixSideNoteIsNotCut)
{
    const auto session = loadSample("kineto/hta-ddp-a100-world2-nccl");
    ASSERT_TRUE(session);
    CommunicationPanel panel;
    uitest::setAnalysed(panel, session);
    uitest::showAndSettle(panel, 1200, 400);
    ASSERT_FALSE(panel.matrixNote().isEmpty());
    const QLabel *note = nullptr;
    for (QLabel *label : panel.findChildren<QLabel *>())
        if (label->text() == panel.matrixNote())
            note = label;
    ASSERT_NE(note, nullptr);
    const int room = note->contentsRect().width() - 2 * note->margin();
    ASSERT_GT(room, 100);
    EXPECT_LE(widestLine(*note), room) << "a word of the note runs past the side note's edge";
}

TEST(EmptyStates, TrainingWithoutLogsShowsNoEmptyRunPicker)
{
    const auto session = loadSample("kineto/hta-ddp-a100-world2-nccl");
    ASSERT_TRUE(session);
    TrainingPanel panel;
    panel.setSession(session);
    uitest::showAndSettle(panel, 1200, 400);
    EXPECT_EQ(panel.runPicker()->count(), 0);
    EXPECT_FALSE(panel.runPicker()->isVisibleTo(&panel));
    for (QLabel *label : panel.findChildren<QLabel *>()) {
        if (label->text() == QStringLiteral("Run:")) {
            EXPECT_FALSE(label->isVisibleTo(&panel));
        }
    }
}

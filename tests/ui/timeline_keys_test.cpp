// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "timeline_testsupport.h"
#include "ui/timeline/keybindings.h"
#include "ui/timeline/timelineview.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QKeyEvent>

using namespace stepscope;
using namespace stepscope::ui::timeline;

namespace {

// XKB keycodes (evdev + 8) of the US positions W A S D, and of the US "Z" position.
constexpr quint32 XkbW = 25;
constexpr quint32 XkbA = 38;
constexpr quint32 XkbS = 39;
constexpr quint32 XkbD = 40;
constexpr quint32 XkbZ = 52;

void press(QWidget *w, int key, quint32 scan, const QString &text,
    Qt::KeyboardModifiers mods = Qt::NoModifier)
{
    QKeyEvent e(QEvent::KeyPress, key, mods, scan, 0, 0, text);
    QApplication::sendEvent(w, &e);
}

struct ViewFixture : ::testing::Test
{
    void SetUp() override
    {
        view.resize(1230, 600);
        view.setModel(TimelineModel::build(testsupport::makeSession(1000, 100, 100, 100)));
        view.fitRange(0, 100'000, false);
    }
    TimelineView view;
};

} // namespace

TEST(TimelineKeys, PositionTablePerPlatform)
{
    const auto none = Qt::NoModifier;
    EXPECT_EQ(actionForKey(Qt::Key_Z, none, XkbW, 0, KeyPlatform::Xkb), TimelineAction::ZoomIn);
    EXPECT_EQ(actionForKey(Qt::Key_Q, none, XkbA, 0, KeyPlatform::Xkb), TimelineAction::PanLeft);
    EXPECT_EQ(actionForKey(Qt::Key_O, none, XkbS, 0, KeyPlatform::Xkb),
        TimelineAction::ZoomOut); // Dvorak
    EXPECT_EQ(actionForKey(Qt::Key_E, none, XkbD, 0, KeyPlatform::Xkb),
        TimelineAction::PanRight); // Dvorak
    EXPECT_EQ(
        actionForKey(Qt::Key_W, none, XkbZ, 0, KeyPlatform::Xkb), TimelineAction::None); // AZERTY W
    EXPECT_EQ(actionForKey(Qt::Key_W, none, 0x11, 0, KeyPlatform::Windows), TimelineAction::ZoomIn);
    EXPECT_EQ(actionForKey(Qt::Key_Z, none, 0x11, 0, KeyPlatform::Windows), TimelineAction::ZoomIn);
    EXPECT_EQ(actionForKey(Qt::Key_Z, none, 0, 0x0D, KeyPlatform::MacOS), TimelineAction::ZoomIn);
    // No position known: the letter decides.
    EXPECT_EQ(actionForKey(Qt::Key_W, none, 0, 0, KeyPlatform::Xkb), TimelineAction::ZoomIn);
    EXPECT_EQ(actionForKey(Qt::Key_D, none, 0, 0, KeyPlatform::Unknown), TimelineAction::PanRight);
    // Modifiers belong to the window's shortcuts.
    EXPECT_EQ(actionForKey(Qt::Key_W, Qt::ControlModifier, XkbW, 0, KeyPlatform::Xkb),
        TimelineAction::None);
    // Other keys by key().
    EXPECT_EQ(actionForKey(Qt::Key_0, none, 19, 0, KeyPlatform::Xkb), TimelineAction::FitAll);
    EXPECT_EQ(
        actionForKey(Qt::Key_Backspace, none, 22, 0, KeyPlatform::Xkb), TimelineAction::UndoZoom);
    EXPECT_EQ(
        actionForKey(Qt::Key_BracketRight, none, 0, 0, KeyPlatform::Xkb), TimelineAction::NextStep);
    EXPECT_EQ(actionForKey(Qt::Key_Dead_Circumflex, none, 34, 0, KeyPlatform::Xkb),
        TimelineAction::PreviousStep);
    EXPECT_EQ(actionForKey(Qt::Key_Question, Qt::ShiftModifier, 61, 0, KeyPlatform::Xkb),
        TimelineAction::ShowShortcuts);
    EXPECT_EQ(keyPlatformFor(QStringLiteral("xcb")), KeyPlatform::Xkb);
    EXPECT_EQ(keyPlatformFor(QStringLiteral("windows")), KeyPlatform::Windows);
}

TEST_F(ViewFixture, AzertyKeyAtTheWPositionZoomsIn)
{
    const double before = view.viewState().axis.nsPerPixel();
    // AZERTY: the key at the US W position types "z".
    press(&view, Qt::Key_Z, XkbW, QStringLiteral("z"));
    EXPECT_LT(view.viewState().axis.nsPerPixel(), before);
    const double zoomed = view.viewState().axis.nsPerPixel();
    // The AZERTY "w" sits at the US Z position: it must not zoom.
    press(&view, Qt::Key_W, XkbZ, QStringLiteral("w"));
    EXPECT_DOUBLE_EQ(view.viewState().axis.nsPerPixel(), zoomed);
    // The key at the S position zooms back out; Backspace undoes zooms.
    press(&view, Qt::Key_S, XkbS, QStringLiteral("s"));
    EXPECT_NEAR(view.viewState().axis.nsPerPixel(), before, before * 1e-9);
    press(&view, Qt::Key_Backspace, 22, QString());
    EXPECT_DOUBLE_EQ(view.viewState().axis.nsPerPixel(), zoomed);
}

TEST_F(ViewFixture, PanByPositionAndArrows)
{
    const std::int64_t start = view.viewState().axis.startNs();
    press(&view, Qt::Key_Q, XkbA, QStringLiteral("q")); // AZERTY key at A
    EXPECT_LT(view.viewState().axis.startNs(), start);
    press(&view, Qt::Key_D, XkbD, QStringLiteral("d"));
    EXPECT_EQ(view.viewState().axis.startNs(), start);
    press(&view, Qt::Key_Right, 114, QString());
    EXPECT_GT(view.viewState().axis.startNs(), start);
}

TEST_F(ViewFixture, ZoomIsAnchoredAtTheMouseCursor)
{
    // No mouse over the view: the centre is the anchor.
    const auto &axis = view.viewState().axis;
    const double centre = axis.widthPx() / 2.0;
    const std::int64_t under = axis.toNs(centre);
    press(&view, Qt::Key_W, XkbW, QStringLiteral("w"));
    EXPECT_NEAR(
        static_cast<double>(view.viewState().axis.toNs(centre)), static_cast<double>(under), 2.0);
}

TEST_F(ViewFixture, StepKeysFitNextAndPreviousStep)
{
    // Steps of 100 kernels x 200 ns = 20 µs each; the view starts at 0.
    press(&view, Qt::Key_BracketRight, 35, QStringLiteral("]"));
    const auto &a = view.viewState().axis;
    EXPECT_LE(a.startNs(), 20'000);
    EXPECT_GE(a.endNs(), 40'000);
    EXPECT_LT(a.endNs() - a.startNs(), 25'000); // step 1 fitted (with a small margin)
    press(&view, Qt::Key_BracketRight, 35, QStringLiteral("]"));
    EXPECT_LE(view.viewState().axis.startNs(), 40'000);
    EXPECT_GT(view.viewState().axis.startNs(), 30'000);
    press(&view, Qt::Key_BracketLeft, 34, QStringLiteral("["));
    EXPECT_LE(view.viewState().axis.startNs(), 20'000);
    EXPECT_GT(view.viewState().axis.startNs(), 10'000);
    press(&view, Qt::Key_0, 19, QStringLiteral("0"));
    EXPECT_LE(view.viewState().axis.startNs(), 0);
    EXPECT_GE(view.viewState().axis.endNs(), 199'900);
}

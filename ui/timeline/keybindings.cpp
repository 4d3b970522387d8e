// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "keybindings.h"

namespace stepscope::ui::timeline {

namespace {

/// The US-layout position a native code stands for.
enum class Position { None, W, A, S, D, LeftBracket, RightBracket };

Position positionOf(std::uint32_t scanCode, std::uint32_t virtualKey, KeyPlatform platform)
{
    switch (platform) {
    case KeyPlatform::Xkb: // XKB keycodes = Linux evdev codes + 8
        switch (scanCode) {
        case 25:
            return Position::W;
        case 38:
            return Position::A;
        case 39:
            return Position::S;
        case 40:
            return Position::D;
        case 34:
            return Position::LeftBracket;
        case 35:
            return Position::RightBracket;
        default:
            return Position::None;
        }
    case KeyPlatform::Windows: // set-1 scan codes
        switch (scanCode) {
        case 0x11:
            return Position::W;
        case 0x1E:
            return Position::A;
        case 0x1F:
            return Position::S;
        case 0x20:
            return Position::D;
        case 0x1A:
            return Position::LeftBracket;
        case 0x1B:
            return Position::RightBracket;
        default:
            return Position::None;
        }
    case KeyPlatform::MacOS: // kVK_ANSI_W = 0x0D, A = 0x00, S = 0x01, D = 0x02, [ = 0x21, ] = 0x1E
        switch (virtualKey) {
        case 0x0D:
            return Position::W;
        case 0x00:
            return Position::A;
        case 0x01:
            return Position::S;
        case 0x02:
            return Position::D;
        case 0x21:
            return Position::LeftBracket;
        case 0x1E:
            return Position::RightBracket;
        default:
            return Position::None;
        }
    case KeyPlatform::Unknown:
        break;
    }
    return Position::None;
}

bool positionsKnown(std::uint32_t scanCode, std::uint32_t virtualKey, KeyPlatform platform)
{
    switch (platform) {
    case KeyPlatform::Xkb:
    case KeyPlatform::Windows:
        return scanCode != 0;
    case KeyPlatform::MacOS:
        return scanCode != 0 || virtualKey != 0;
    case KeyPlatform::Unknown:
        return false;
    }
    return false;
}

} // namespace

KeyPlatform keyPlatformFor(const QString &platformName)
{
    if (platformName == QLatin1String("xcb") || platformName.startsWith(QLatin1String("wayland"))
        || platformName == QLatin1String("offscreen") || platformName == QLatin1String("minimal"))
        return KeyPlatform::Xkb;
    if (platformName == QLatin1String("windows"))
        return KeyPlatform::Windows;
    if (platformName == QLatin1String("cocoa"))
        return KeyPlatform::MacOS;
    return KeyPlatform::Unknown;
}

TimelineAction actionForKey(int key, Qt::KeyboardModifiers modifiers, std::uint32_t nativeScanCode,
    std::uint32_t nativeVirtualKey, KeyPlatform platform)
{
    // Shortcuts with Ctrl / Alt / Meta belong to the window (Ctrl+O, Ctrl+F...).
    if (modifiers & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
        return TimelineAction::None;
    const bool isLetter =
        key == Qt::Key_W || key == Qt::Key_A || key == Qt::Key_S || key == Qt::Key_D;
    if (positionsKnown(nativeScanCode, nativeVirtualKey, platform)) {
        switch (positionOf(nativeScanCode, nativeVirtualKey, platform)) {
        case Position::W:
            return TimelineAction::ZoomIn;
        case Position::A:
            return TimelineAction::PanLeft;
        case Position::S:
            return TimelineAction::ZoomOut;
        case Position::D:
            return TimelineAction::PanRight;
        case Position::LeftBracket:
            return TimelineAction::PreviousStep;
        case Position::RightBracket:
            return TimelineAction::NextStep;
        case Position::None:
            break;
        }
        if (isLetter)
            return TimelineAction::None; // the letter sits elsewhere on this layout
    } else {
        switch (key) {
        case Qt::Key_W:
            return TimelineAction::ZoomIn;
        case Qt::Key_A:
            return TimelineAction::PanLeft;
        case Qt::Key_S:
            return TimelineAction::ZoomOut;
        case Qt::Key_D:
            return TimelineAction::PanRight;
        default:
            break;
        }
    }
    switch (key) {
    case Qt::Key_Left:
        return TimelineAction::PanLeft;
    case Qt::Key_Right:
        return TimelineAction::PanRight;
    case Qt::Key_Up:
        return TimelineAction::ScrollUp;
    case Qt::Key_Down:
        return TimelineAction::ScrollDown;
    case Qt::Key_F:
        return TimelineAction::FitSelection;
    case Qt::Key_0:
        return TimelineAction::FitAll;
    case Qt::Key_Backspace:
        return TimelineAction::UndoZoom;
    case Qt::Key_BracketLeft:
        return TimelineAction::PreviousStep;
    case Qt::Key_BracketRight:
        return TimelineAction::NextStep;
    case Qt::Key_M:
        return TimelineAction::RangeFromSelection;
    case Qt::Key_Question:
        return TimelineAction::ShowShortcuts;
    default:
        return TimelineAction::None;
    }
}

QString shortcutHelpHtml()
{
    static const char *const Rows[][2] = {
        {"W / S", "zoom in / out at the mouse cursor (keys at the W/S position on any layout)"},
        {"A / D, ← / →", "pan left / right (A/D by position)"},
        {"↑ / ↓", "scroll lanes"},
        {"wheel / Ctrl+wheel", "zoom at the cursor / scroll lanes"},
        {"drag / Shift+drag", "pan / select a time range"},
        {"click / double-click", "select an event / fit it"},
        {"F, 0, Backspace", "fit selection, fit all, undo zoom"},
        {"[ / ]", "previous / next step"},
        {"Ctrl+F, Enter, Shift+Enter", "search, next, previous match"},
        {"M", "turn the selected event into a range selection"},
        {"right-click a lane header", "pin, hide, show hidden lanes"},
        {"Ctrl+O", "open a profile folder"},
        {"Ctrl+Shift+E", "export the view (PNG or SVG)"},
        {"Ctrl+Shift+C", "copy the view as an image"},
        {"Ctrl+Q", "quit"},
        {"?", "this list"},
    };
    QString html = QStringLiteral("<table cellspacing=6>");
    for (const auto &row : Rows)
        html += QStringLiteral("<tr><td><b>") + QString::fromUtf8(row[0])
            + QStringLiteral("</b></td><td>") + QString::fromUtf8(row[1])
            + QStringLiteral("</td></tr>");
    html += QStringLiteral("</table>");
    return html;
}

} // namespace stepscope::ui::timeline

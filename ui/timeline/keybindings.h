// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <QString>
#include <Qt>

#include <cstdint>

namespace stepscope::ui::timeline {

/// What a key does in the timeline (DESIGN.md "Keys").
enum class TimelineAction {
    None,
    ZoomIn, ///< W (by position), zoom at the mouse cursor
    ZoomOut, ///< S (by position)
    PanLeft, ///< A (by position), ←
    PanRight, ///< D (by position), →
    ScrollUp, ///< ↑
    ScrollDown, ///< ↓
    FitSelection, ///< F
    FitAll, ///< 0
    UndoZoom, ///< Backspace
    PreviousStep, ///< [
    NextStep, ///< ]
    RangeFromSelection, ///< M
    ShowShortcuts, ///< ?
};

/// How the platform numbers physical keys.
enum class KeyPlatform {
    Xkb, ///< X11 (xcb) and Wayland: nativeScanCode() is the XKB keycode (evdev + 8)
    Windows, ///< nativeScanCode() is the PC set-1 scan code
    MacOS, ///< nativeVirtualKey() is the kVK_ANSI_* position code
    Unknown, ///< no reliable position: fall back to key()
};

/// The key platform of a QGuiApplication::platformName() ("xcb", "wayland", "windows",
/// "cocoa", "offscreen" — offscreen is treated as XKB so tests can send XKB keycodes).
KeyPlatform keyPlatformFor(const QString &platformName);

/*
 * W/A/S/D navigation is bound to the key's POSITION, not its letter, so that it works on
 * AZERTY (Z Q S D), Dvorak (, A O E), Cyrillic and any other layout: a user presses the keys
 * where W A S D are on a US keyboard. The position comes from the native scan code
 * (QKeyEvent::nativeScanCode() on X11/xcb, Wayland and Windows) or the native virtual key
 * (macOS kVK_ANSI_*, which are positions). When the platform gives no position (scan code 0,
 * unknown platform), the letter from key() is used instead. A letter W/A/S/D typed at
 * another position does nothing when positions are known, so it cannot fight the key that is
 * physically at W. [ and ] also answer to their US positions for layouts where the brackets
 * need AltGr. Every other key is matched by key().
 */
TimelineAction actionForKey(int key, Qt::KeyboardModifiers modifiers, std::uint32_t nativeScanCode,
    std::uint32_t nativeVirtualKey, KeyPlatform platform);

/// The shortcut list shown by "?" (HTML table).
QString shortcutHelpHtml();

} // namespace stepscope::ui::timeline

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <QSize>

/// The window's layout at a first launch and after View › Reset Layout: its size, and the
/// height the bottom docks (Steps, Memory, Communication, …) get when a profile opens. Pure
/// functions of the screen and the panels' minimum size hints, so a small or 2× screen gets
/// a window that fits and each panel the room it needs to be read without scrolling.
namespace stepscope::ui::defaultlayout {

/// The size of a first launch.
inline constexpr QSize PreferredWindowSize {1280, 800};
/// The docks never take more of the window's height than this; the timeline keeps the rest.
inline constexpr double MaxDockShare = 0.55;
/// Nor less than this (the panels' minimum sizes may be smaller).
inline constexpr double MinDockShare = 0.25;

/// PreferredWindowSize, or less when the screen's available area (logical pixels, so a 2×
/// 2560×1600 screen is 1280×800) is smaller: then 94 % of it, never below 640×480.
QSize windowSize(const QSize &available);

/// The height of the bottom docks when a profile opens in a window `windowHeight` tall:
/// `panelNeed` (the tallest panel's minimum height, with the dock's title bar and tabs),
/// kept between MinDockShare and MaxDockShare of the window.
int bottomDockHeight(int windowHeight, int panelNeed);

} // namespace stepscope::ui::defaultlayout

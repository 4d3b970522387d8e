// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "palette.h"

#include <QGuiApplication>
#include <QPalette>

#include <algorithm>

namespace stepscope::ui {

namespace {

/// Same hue, lightness raised for a dark background (DESIGN.md: "same hues, adjusted
/// lightness").
QColor adjust(QColor c, Theme theme)
{
    if (theme == Theme::Light)
        return c;
    float h = 0, s = 0, l = 0, a = 0;
    c.getHslF(&h, &s, &l, &a);
    l = std::min(0.85f, l * 1.18f + 0.06f);
    return QColor::fromHslF(h, s, l, a);
}

QColor rgb(unsigned v)
{
    return QColor::fromRgb(static_cast<int>((v >> 16) & 0xff), static_cast<int>((v >> 8) & 0xff),
        static_cast<int>(v & 0xff));
}

} // namespace

Theme currentTheme()
{
    const QColor window = QGuiApplication::palette().color(QPalette::Window);
    return window.lightnessF() < 0.45 ? Theme::Dark : Theme::Light;
}

QColor categoryColor(model::Category category, Theme theme)
{
    unsigned v = 0x999999;
    switch (category) {
    case model::Category::Compute:
        v = 0x0072B2;
        break; // blue
    case model::Category::Communication:
        v = 0xD55E00;
        break; // vermillion
    case model::Category::Memcpy:
        v = 0x009E73;
        break; // bluish green
    case model::Category::Memset:
        v = 0x4DBB9A;
        break; // bluish green, lighter
    case model::Category::DataLoading:
        v = 0xCC79A7;
        break; // reddish purple
    case model::Category::HostOp:
        v = 0x80B9D8;
        break; // light tint of compute
    case model::Category::Runtime:
        v = 0xF2CF80;
        break; // light tint of orange (launch)
    case model::Category::Python:
        v = 0xF5EE9A;
        break; // light tint of yellow #F0E442
    case model::Category::Annotation:
        v = 0xCFCFCF;
        break; // light grey
    case model::Category::Other:
        v = 0xA8A8A8;
        break; // grey
    }
    return adjust(rgb(v), theme);
}

QColor denseColor(Theme theme)
{
    return theme == Theme::Light ? rgb(0x5F6B75) : rgb(0xA0ACB5);
}

QColor selectionColor(Theme theme)
{
    return theme == Theme::Light ? rgb(0x000000) : rgb(0xFFFFFF);
}

QColor searchMatchColor(Theme theme)
{
    Q_UNUSED(theme);
    return rgb(0xF0E442); // Okabe–Ito yellow, visible on every other hue
}

QColor rangeSelectionColor(Theme theme)
{
    QColor c = theme == Theme::Light ? rgb(0x56B4E9) : rgb(0x8ACCF0);
    c.setAlpha(60);
    return c;
}

QColor flowColor(Theme theme)
{
    return theme == Theme::Light ? rgb(0x202020) : rgb(0xE0E0E0);
}

QColor segmentColor(SegmentColor segment, Theme theme)
{
    unsigned v = 0xCCCCCC;
    switch (segment) {
    case SegmentColor::Compute:
        v = 0x0072B2;
        break;
    case SegmentColor::CommExposed:
        v = 0xD55E00;
        break;
    case SegmentColor::CommOverlapped:
        v = 0xE69F00;
        break;
    case SegmentColor::HostWait:
        v = 0x777777;
        break;
    case SegmentColor::DataLoading:
        v = 0xCC79A7;
        break;
    case SegmentColor::LaunchGap:
        v = 0xAAAAAA;
        break;
    case SegmentColor::OtherIdle:
        v = 0xCCCCCC;
        break;
    case SegmentColor::Bubble:
        v = 0x56B4E9;
        break;
    case SegmentColor::Preparing:
        v = 0xF0E442;
        break;
    }
    return adjust(rgb(v), theme);
}

const char *segmentLabel(SegmentColor segment)
{
    switch (segment) {
    case SegmentColor::Compute:
        return "compute";
    case SegmentColor::CommExposed:
        return "communication, exposed";
    case SegmentColor::CommOverlapped:
        return "communication, overlapped";
    case SegmentColor::HostWait:
        return "host wait";
    case SegmentColor::DataLoading:
        return "data loading";
    case SegmentColor::LaunchGap:
        return "launch gaps";
    case SegmentColor::OtherIdle:
        return "other idle";
    case SegmentColor::Bubble:
        return "pipeline bubble";
    case SegmentColor::Preparing:
        return "preparing";
    }
    return "";
}

SegmentColor toSegmentColor(analysis::SegmentKind kind)
{
    switch (kind) {
    case analysis::SegmentKind::Compute:
        return SegmentColor::Compute;
    case analysis::SegmentKind::CommExposed:
        return SegmentColor::CommExposed;
    case analysis::SegmentKind::CommOverlapped:
        return SegmentColor::CommOverlapped;
    case analysis::SegmentKind::HostWait:
        return SegmentColor::HostWait;
    case analysis::SegmentKind::DataLoading:
        return SegmentColor::DataLoading;
    case analysis::SegmentKind::LaunchGap:
        return SegmentColor::LaunchGap;
    case analysis::SegmentKind::OtherIdle:
        return SegmentColor::OtherIdle;
    case analysis::SegmentKind::Bubble:
        return SegmentColor::Bubble;
    case analysis::SegmentKind::Preparing:
        return SegmentColor::Preparing;
    }
    return SegmentColor::OtherIdle;
}

QColor memoryCategoryColor(model::MemoryCategory category, Theme theme)
{
    unsigned v = 0xDDDDDD;
    switch (category) { // Paul Tol "muted", colour-blind safe, distinct from Okabe–Ito
    case model::MemoryCategory::Parameter:
        v = 0x332288;
        break;
    case model::MemoryCategory::Gradient:
        v = 0xCC6677;
        break;
    case model::MemoryCategory::OptimizerState:
        v = 0x882255;
        break;
    case model::MemoryCategory::Activation:
        v = 0x117733;
        break;
    case model::MemoryCategory::Input:
        v = 0x44AA99;
        break;
    case model::MemoryCategory::AutogradDetail:
        v = 0x999933;
        break;
    case model::MemoryCategory::Temporary:
        v = 0xDDCC77;
        break;
    case model::MemoryCategory::CommunicationBuffer:
        v = 0x88CCEE;
        break;
    case model::MemoryCategory::Unknown:
        v = 0xBBBBBB;
        break;
    }
    return adjust(rgb(v), theme);
}

const std::array<model::MemoryCategory, model::MemoryCategoryCount> &memoryCategoryStackOrder()
{
    static const std::array<model::MemoryCategory, model::MemoryCategoryCount> Order = {
        model::MemoryCategory::Parameter,
        model::MemoryCategory::Gradient,
        model::MemoryCategory::OptimizerState,
        model::MemoryCategory::Activation,
        model::MemoryCategory::Input,
        model::MemoryCategory::AutogradDetail,
        model::MemoryCategory::Temporary,
        model::MemoryCategory::CommunicationBuffer,
        model::MemoryCategory::Unknown,
    };
    return Order;
}

QColor textOn(const QColor &fill)
{
    const double luminance = 0.299 * fill.redF() + 0.587 * fill.greenF() + 0.114 * fill.blueF();
    return luminance > 0.55 ? QColor(Qt::black) : QColor(Qt::white);
}

} // namespace stepscope::ui

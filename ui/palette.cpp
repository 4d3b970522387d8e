// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "palette.h"

#include "ui/text.h"

#include <QGuiApplication>
#include <QPalette>

#include <algorithm>
#include <cmath>

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

/// A light tint (host ops, runtime, Python, annotations) on a dark background: a tint is
/// "closer to the background than its base hue", so on dark it is darker, not paler (raising
/// its lightness as adjust() does made these the brightest fills of the picture).
QColor darkTint(const QColor &c)
{
    float h = 0, s = 0, l = 0, a = 0;
    c.getHslF(&h, &s, &l, &a);
    return QColor::fromHslF(h, std::min(s, 0.45f), 0.36f, a);
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
    const bool tint = category == model::Category::HostOp || category == model::Category::Runtime
        || category == model::Category::Python || category == model::Category::Annotation;
    if (tint && theme == Theme::Dark)
        return darkTint(rgb(v));
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

QColor searchHaloColor(Theme theme)
{
    Q_UNUSED(theme);
    return rgb(0x202020);
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

QColor segmentColor(analysis::SegmentKind kind, Theme theme)
{
    unsigned v = 0xCCCCCC;
    switch (kind) {
    case analysis::SegmentKind::Compute:
        v = 0x0072B2;
        break;
    case analysis::SegmentKind::CommExposed:
        v = 0xD55E00;
        break;
    case analysis::SegmentKind::CommOverlapped:
        v = 0xE69F00;
        break;
    case analysis::SegmentKind::HostWait:
        v = 0x777777;
        break;
    case analysis::SegmentKind::DataLoading:
        v = 0xCC79A7;
        break;
    case analysis::SegmentKind::LaunchGap:
        v = 0xAAAAAA;
        break;
    case analysis::SegmentKind::OtherIdle:
        v = 0xCCCCCC;
        break;
    case analysis::SegmentKind::Bubble:
        v = 0x56B4E9;
        break;
    case analysis::SegmentKind::Preparing:
        v = 0xF0E442;
        break;
    }
    return adjust(rgb(v), theme);
}

QString segmentName(analysis::SegmentKind kind)
{
    return qs(analysis::segmentKindName(kind));
}

QString figureName(analysis::SegmentKind kind)
{
    return qs(analysis::figureKindName(kind));
}

const std::array<analysis::SegmentKind, analysis::SegmentKindCount> &segmentKinds()
{
    static const std::array<analysis::SegmentKind, analysis::SegmentKindCount> kinds = [] {
        std::array<analysis::SegmentKind, analysis::SegmentKindCount> k {};
        for (std::size_t i = 0; i < k.size(); ++i)
            k[i] = static_cast<analysis::SegmentKind>(i);
        return k;
    }();
    return kinds;
}

QColor beforeColor(Theme theme)
{
    return theme == Theme::Dark ? rgb(0x56B4E9) : rgb(0x0072B2);
}

QColor afterColor(Theme theme)
{
    return theme == Theme::Dark ? rgb(0xF0B830) : rgb(0xE69F00);
}

QColor betterColor(Theme theme)
{
    return theme == Theme::Dark ? rgb(0x5CD67A) : rgb(0x1A7F37);
}

QColor worseColor(Theme theme)
{
    return theme == Theme::Dark ? rgb(0xFF6B6B) : rgb(0xC62828);
}

QColor referenceMarkerColor(Theme theme)
{
    return theme == Theme::Dark ? rgb(0xE0E0E0) : rgb(0x222222);
}

QColor memoryCurveColor(MemoryCurve curve, Theme theme)
{
    switch (curve) {
    case MemoryCurve::Allocated:
        return adjust(rgb(0x0072B2), theme);
    case MemoryCurve::Reserved:
        return adjust(rgb(0xE69F00), theme);
    case MemoryCurve::Active:
        break;
    }
    return adjust(rgb(0x009E73), theme);
}

QColor peakMarkerColor(Theme theme)
{
    return adjust(rgb(0xD55E00), theme);
}

QColor estimateColor(Theme theme)
{
    return adjust(rgb(0xAAAAAA), theme);
}

QColor fallbackSeriesColor(Theme theme)
{
    return adjust(rgb(0xA0A0A4), theme);
}

QColor runSeriesColor(std::size_t index, Theme theme)
{
    constexpr std::array<unsigned, 8> Colors = {
        0x1F77B4, 0xFF7F0E, 0x2CA02C, 0x9467BD, 0x8C564B, 0xE377C2, 0x7F7F7F, 0xBCBD22};
    return adjust(rgb(Colors[index % Colors.size()]), theme);
}

QColor anomalyMarkerColor(Theme theme)
{
    return adjust(rgb(0xD62728), theme);
}

QColor untracedColor(Theme theme)
{
    return adjust(rgb(0xC5D0DE), theme);
}

QColor skippedStepColor(Theme theme)
{
    return adjust(rgb(0xFF7F0E), theme);
}

QColor heatScaleColor(double f)
{
    const QColor low = rgb(0xDEEBF7);
    const QColor mid = rgb(0x6BAED6);
    const QColor high = rgb(0x08306B);
    f = std::clamp(f, 0.0, 1.0);
    const auto blend = [](const QColor &a, const QColor &b, double t) {
        return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * t),
            static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * t),
            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * t));
    };
    return f < 0.5 ? blend(low, mid, f * 2) : blend(mid, high, (f - 0.5) * 2);
}

QColor divergingScaleColor(double f)
{
    const QColor blue = rgb(0x2166AC);
    const QColor white = rgb(0xF7F7F7);
    const QColor red = rgb(0xB2182B);
    f = std::clamp(f, -1.0, 1.0);
    const double t = std::fabs(f);
    const QColor &end = f < 0 ? blue : red;
    return QColor::fromRgbF(static_cast<float>(white.redF() + (end.redF() - white.redF()) * t),
        static_cast<float>(white.greenF() + (end.greenF() - white.greenF()) * t),
        static_cast<float>(white.blueF() + (end.blueF() - white.blueF()) * t));
}

QColor paperTextColor()
{
    return rgb(0x202020);
}

QColor paperMutedColor()
{
    return rgb(0x808080);
}

QColor paperGridColor()
{
    return rgb(0xD8D8D8);
}

QColor paperTitleBarColor()
{
    return rgb(0xE8E8E8);
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

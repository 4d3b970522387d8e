// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// What the timeline writes fits where it writes it: lane and slice labels elided in the middle
// as the font measures them (never cut mid-letter), a legend that says how many entries did
// not fit, and light tints that stay dark on a dark background.
#include "import/loader.h"
#include "timeline_testsupport.h"
#include "ui/palette.h"
#include "ui/timeline/geometrybuilder.h"
#include "ui/timeline/timelinemodel.h"
#include "ui/timeline/viewstate.h"

#include <gtest/gtest.h>

#include <QFontMetricsF>
#include <QGuiApplication>

#include <set>

using namespace stepscope;
using namespace stepscope::ui;
using namespace stepscope::ui::timeline;

namespace {

std::shared_ptr<const model::Session> load(const char *relative)
{
    util::Progress progress;
    return import::loadPath(std::filesystem::path(STEPSCOPE_TEST_DATA) / relative, progress)
        .session;
}

Geometry build(const TimelineModel &m, QSize size, const TimelineMetrics &metrics)
{
    ViewState view;
    view.axis.setWidth(size.width() - metrics.headerWidth);
    const auto [lo, hi] = m.extent();
    view.axis.fit(lo, hi);
    return buildGeometry(m, view, size, metrics, QGuiApplication::font());
}

/// Every text item, as the painter's font measures it, inside its rectangle.
void expectTextsFit(const Geometry &g)
{
    QFont bold = QGuiApplication::font();
    bold.setBold(true);
    const QFontMetricsF fm(QGuiApplication::font());
    const QFontMetricsF boldFm(bold);
    for (const TextItem &t : g.texts) {
        const double w = (t.bold ? boldFm : fm).horizontalAdvance(t.text);
        EXPECT_LE(w, t.rect.width() + 0.5) << t.text.toStdString();
    }
}

} // namespace

TEST(TimelineLabels, LaneAndSliceLabelsFitAsMeasuredAndElideInTheMiddle)
{
    // The DDP sample's host thread is "thread 2910249 (pt_main_thread)": in a 160 px header
    // it used to be cut at the right edge without "…" (the average-width estimate).
    auto session = load("kineto/hta-ddp-a100-world2-nccl");
    ASSERT_TRUE(session && session->hasContent());
    auto m = TimelineModel::build(session);
    TimelineMetrics metrics;
    metrics.headerWidth = 160;
    const Geometry g = build(*m, QSize(1200, 700), metrics);
    expectTextsFit(g);
    bool elidedThread = false;
    for (const TextItem &t : g.texts)
        elidedThread |= t.text.startsWith(QStringLiteral("thread 29")) && t.text.contains(u'…')
            && t.text.endsWith(QStringLiteral("thread)"));
    EXPECT_TRUE(elidedThread);

    // Slice labels at a zoom where long operator names meet narrow slices.
    ViewState view;
    view.axis.setWidth(1200 - metrics.headerWidth);
    const auto [lo, hi] = m->extent();
    view.axis.fit(lo, lo + (hi - lo) / 6);
    const Geometry zoomed =
        buildGeometry(*m, view, QSize(1200, 700), metrics, QGuiApplication::font());
    expectTextsFit(zoomed);
    EXPECT_GT(zoomed.texts.size(), 20u);
}

TEST(TimelineLabels, LegendCountsWhatDoesNotFit)
{
    auto session = load("kineto/hta-ddp-a100-world2-nccl");
    ASSERT_TRUE(session);
    auto m = TimelineModel::build(session);
    TimelineMetrics metrics;

    auto legendTexts = [&](int width) {
        const QSize size(width, 500);
        const Geometry g = build(*m, size, metrics);
        std::vector<QString> out;
        for (const TextItem &t : g.texts) {
            if (t.rect.top() >= size.height() - metrics.legendHeight - 0.5) {
                out.push_back(t.text);
                EXPECT_LE(t.rect.right(), width) << t.text.toStdString();
            }
        }
        return out;
    };
    const std::vector<QString> wide = legendTexts(4000);
    ASSERT_FALSE(wide.empty());
    for (const QString &t : wide)
        EXPECT_FALSE(t.endsWith(QStringLiteral(" more"))) << t.toStdString();
    const std::vector<QString> narrow = legendTexts(500);
    ASSERT_FALSE(narrow.empty());
    ASSERT_TRUE(narrow.back().startsWith(u'+')) << narrow.back().toStdString();
    // "+N more": N is the number of entries with a swatch that the wide legend shows and the
    // narrow one does not (headings "step lane:" / "events:" have none).
    const int n = narrow.back().mid(1).section(u' ', 0, 0).toInt();
    auto swatches = [](const std::vector<QString> &texts, std::size_t count) {
        int k = 0;
        for (std::size_t i = 0; i < count; ++i)
            k += texts[i].endsWith(u':') ? 0 : 1;
        return k;
    };
    EXPECT_EQ(n, swatches(wide, wide.size()) - swatches(narrow, narrow.size() - 1));
    EXPECT_GT(n, 0);
}

/// Exported pictures ended their legend in "+3 more": a picture cannot be hovered. An export
/// (paintTimeline) wraps the legend onto up to three lines; two lines hold what one does not.
TEST(TimelineLabels, ExportedLegendsWrapInsteadOfCounting)
{
    auto session = load("kineto/hta-ddp-a100-world2-nccl");
    ASSERT_TRUE(session);
    auto m = TimelineModel::build(session);
    ViewState view;
    const int width = 900;
    const int lines = legendLinesNeeded(*m, view, width, QGuiApplication::font());
    ASSERT_EQ(lines, 2); // at 900 px, one line ends in "+N more" (LegendCountsWhatDoesNotFit)
    EXPECT_EQ(legendLinesNeeded(*m, view, 4000, QGuiApplication::font()), 1);
    TimelineMetrics metrics;
    metrics.legendHeight = lines * LegendLineHeight;
    const QSize size(width, 500);
    view.axis.setWidth(width - metrics.headerWidth);
    view.axis.fit(m->extent().first, m->extent().second);
    const Geometry g = buildGeometry(*m, view, size, metrics, QGuiApplication::font());
    std::set<double> rows;
    int entries = 0;
    for (const TextItem &t : g.texts) {
        if (t.rect.top() < size.height() - metrics.legendHeight - 0.5)
            continue;
        EXPECT_FALSE(t.text.endsWith(QStringLiteral(" more"))) << t.text.toStdString();
        EXPECT_LE(t.rect.right(), width) << t.text.toStdString();
        rows.insert(t.rect.top());
        ++entries;
    }
    EXPECT_EQ(rows.size(), 2u);
    metrics.legendHeight = LegendLineHeight; // the window's one line still counts the rest
    const Geometry one = buildGeometry(*m, view, size, metrics, QGuiApplication::font());
    int oneLine = 0;
    bool more = false;
    for (const TextItem &t : one.texts) {
        if (t.rect.top() >= size.height() - LegendLineHeight - 0.5) {
            ++oneLine;
            more |= t.text.endsWith(QStringLiteral(" more"));
        }
    }
    EXPECT_TRUE(more);
    EXPECT_LT(oneLine, entries + 1);
}

/// The ruler writes "step N" over a step that fits it and N over one that fits only that. A
/// step narrower than half its digits is not measured at all (shaping a label per step was
/// most of a zoomed-out frame over 1 500 steps); that must not lose a label that fits. Steps
/// of every width from a quarter pixel to about 100 px, each checked against the font.
TEST(TimelineLabels, TheRulerWritesEveryStepLabelThatFits)
{
    auto session = std::make_shared<model::Session>();
    session->format = "synthetic";
    model::TraceBuilder b;
    const model::TrackId d = testsupport::addDeviceStream(b, "200", "7");
    const model::StringId kernel = b.intern("kernel");
    std::int64_t t = 0;
    for (std::int64_t k = 0; k < 240; ++k) {
        const std::int64_t w = 250 + 400 * k; // ns; the view below draws about 1 px per 1000 ns
        b.track(d).add(t, w, kernel, model::Category::Compute);
        b.trace().steps.push_back({1000 + k, t, t + w});
        t += w;
    }
    session->traces.push_back(std::make_shared<const model::Trace>(b.finish().trace));
    auto m = TimelineModel::build(session);
    ASSERT_EQ(m->steps(0).size(), 240u);

    TimelineMetrics metrics;
    const int laneWidth = static_cast<int>(t / 1000);
    const QSize size(metrics.headerWidth + laneWidth, 300);
    ViewState view;
    view.axis.setWidth(laneWidth);
    view.axis.fit(m->extent().first, m->extent().second);
    const Geometry g = buildGeometry(*m, view, size, metrics, QGuiApplication::font());

    const QFontMetricsF fm(QGuiApplication::font());
    std::set<std::string> expected; // std::string: a failure prints the labels
    int numbersOnly = 0;
    for (const StepSpan &s : m->steps(0)) {
        const double x0 = metrics.headerWidth + std::max(0.0, view.axis.toPx(s.startNs));
        const double x1 =
            std::min<double>(size.width(), metrics.headerWidth + view.axis.toPx(s.endNs));
        const QString full = QStringLiteral("step %1").arg(s.number);
        const QString number = QString::number(s.number);
        if (x1 - x0 >= fm.horizontalAdvance(full) + 6) {
            expected.insert(full.toStdString());
        } else if (x1 - x0 >= fm.horizontalAdvance(number) + 2) {
            expected.insert(number.toStdString());
            ++numbersOnly;
        }
    }
    std::set<std::string> written;
    const double h = metrics.rulerHeight;
    for (const TextItem &text : g.texts) {
        if (text.rect.top() >= h * 0.5 - 0.5 && text.rect.top() < h)
            written.insert(text.text.toStdString());
    }
    EXPECT_EQ(written, expected);
    EXPECT_GT(numbersOnly, 20); // both kinds of label are there, and steps with none
    EXPECT_GT(expected.size(), static_cast<std::size_t>(numbersOnly) + 20);
    EXPECT_LT(expected.size(), 200u);
}

TEST(TimelineLabels, LightTintsStayDarkOnADarkBackground)
{
    for (model::Category tint : {model::Category::HostOp, model::Category::Runtime,
             model::Category::Python, model::Category::Annotation}) {
        const QColor light = categoryColor(tint, Theme::Light);
        const QColor dark = categoryColor(tint, Theme::Dark);
        // Light: a tint is lighter than compute's blue; dark: darker than the dark compute
        // blue, never the brightest fill of the picture.
        EXPECT_GT(
            light.lightnessF(), categoryColor(model::Category::Compute, Theme::Light).lightnessF());
        EXPECT_LT(dark.lightnessF(), 0.45) << model::categoryName(tint);
        EXPECT_LT(
            dark.lightnessF(), categoryColor(model::Category::Compute, Theme::Dark).lightnessF());
        EXPECT_NEAR(dark.hslHueF(), light.hslHueF(), 0.02); // same hue
    }
}

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Exports every view of real samples offscreen and checks size, content and layout through
// the geometry (no pixel goldens).

#include "analysis/analysissummary.h"
#include "analysis/breakdown.h"
#include "analysis/units.h"
#include "import/loader.h"
#include "ui/export/viewexport.h"
#include "ui/timeline/geometrybuilder.h"
#include "ui/timeline/timelinemodel.h"
#include "ui/timeline/viewstate.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QXmlStreamReader>

using namespace stepscope;
using namespace stepscope::ui;

namespace {

std::shared_ptr<const model::Session> loadSample(const char *relative)
{
    util::Progress progress;
    return import::loadPath(std::string(STEPSCOPE_TEST_DATA) + "/" + relative, progress).session;
}

/// The text nodes of an exported SVG, in order.
QStringList svgTexts(const QString &path)
{
    QStringList texts;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return texts;
    QXmlStreamReader xml(&f);
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == QLatin1String("text"))
            texts << xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
    }
    return texts;
}

bool isBlank(const QImage &img)
{
    const QRgb first = img.pixel(0, 0);
    for (int y = 0; y < img.height(); y += 2)
        for (int x = 0; x < img.width(); x += 2)
            if (img.pixel(x, y) != first)
                return false;
    return true;
}

/// Exports `view` of `session` as SVG into `dir`: the file written, empty when not one.
QString exportSvg(std::shared_ptr<const model::Session> session, ExportView view, QSize size,
    const QString &name, const QTemporaryDir &dir)
{
    ImageRequest request;
    request.size = size;
    request.format = ImageFormat::Svg;
    QString error;
    const QStringList files =
        exportViews(std::move(session), {view}, {}, {}, request, dir.path(), name, &error);
    EXPECT_EQ(files.size(), 1) << error.toStdString();
    return files.size() == 1 ? files[0] : QString();
}

const std::vector<ExportView> AllViews = {
    ExportView::Timeline, ExportView::Steps, ExportView::Memory, ExportView::Communication};

} // namespace

class ExportViews : public ::testing::TestWithParam<const char *>
{
};

TEST_P(ExportViews, EveryViewIsWrittenAtTheRequestedSizeAndNotBlank)
{
    auto session = loadSample(GetParam());
    ASSERT_TRUE(session && session->hasContent()) << GetParam();
    QTemporaryDir dir;
    ImageRequest request;
    request.size = QSize(900, 500);
    request.scale = 2;
    QString error;
    const QStringList files = exportViews(
        session, AllViews, {}, {}, request, dir.path(), QStringLiteral("sample"), &error);
    // A memory timeline alone gets no timeline picture (an empty ruler), and says why.
    const bool memoryOnly = session->eventCount() == 0;
    EXPECT_EQ(error.contains(QStringLiteral("no timeline picture")), memoryOnly)
        << error.toStdString();
    ASSERT_EQ(files.size(), memoryOnly ? 3 : 4);
    for (const QString &f : files) {
        const QImage img(f);
        EXPECT_EQ(img.size(), QSize(1800, 1000)) << f.toStdString();
        EXPECT_FALSE(isBlank(img)) << f.toStdString();
    }
}

INSTANTIATE_TEST_SUITE_P(RealSamples, ExportViews,
    ::testing::Values("kineto/hta-mi250-minitoy-rocm", "ascend_pt/msinsight-cnn-level2-2rank",
        "torch_memory/hta-memory-timeline-raw"));

TEST(ExportViews, TimelineGeometryLaysOutRulerLanesStepAndLegend)
{
    auto session = loadSample("ascend_pt/msinsight-cnn-level2-2rank");
    const auto analysed =
        std::make_shared<const analysis::SessionAnalysis>(analysis::analyzeSession(*session, {}));
    auto model = timeline::TimelineModel::build(session, true, analysed);
    timeline::ViewState view;
    const QSize size(1400, 800);
    timeline::TimelineMetrics metrics;
    view.axis.setWidth(size.width() - metrics.headerWidth);
    QString error;
    const auto window =
        resolveSelection(*model, *analysed, TimeSelection {50, std::nullopt}, &error);
    ASSERT_TRUE(window) << error.toStdString();
    view.axis.fit(window->first, window->second);
    const timeline::Geometry g = timeline::buildGeometry(*model, view, size, metrics);
    bool rank = false;
    bool step = false;
    bool rulerUnit = false;
    bool legendCompute = false;
    for (const timeline::TextItem &t : g.texts) {
        EXPECT_TRUE(QRectF(QPointF(0, 0), QSizeF(size)).intersects(t.rect)) << t.text.toStdString();
        rank |= t.text.contains(QStringLiteral("rank 0"));
        step |= t.text.contains(QStringLiteral("50"));
        rulerUnit |= t.text.endsWith(QStringLiteral(" ms"));
        legendCompute |= t.text.compare(QStringLiteral("compute"), Qt::CaseInsensitive) == 0;
    }
    EXPECT_TRUE(rank);
    EXPECT_TRUE(step);
    EXPECT_TRUE(rulerUnit);
    EXPECT_TRUE(legendCompute);
    EXPECT_GT(g.rectCount(), 0u);
}

TEST(ExportViews, OneBreakdownPassForAllViews)
{
    // The timeline, Steps and Cluster pictures show one analysis of the session: the breakdown
    // pass runs once per trace for the whole export, not once per view.
    auto session = loadSample("ascend_pt/msinsight-cnn-level2-2rank");
    ASSERT_TRUE(session);
    ASSERT_EQ(session->traces.size(), 2u);
    QTemporaryDir dir;
    ImageRequest request;
    request.size = QSize(600, 300);
    QString error;
    const std::uint64_t before = analysis::breakdownPassCount();
    const QStringList files = exportViews(session,
        {ExportView::Timeline, ExportView::Steps, ExportView::Cluster, ExportView::Memory}, {}, {},
        request, dir.path(), QStringLiteral("cnn"), &error);
    ASSERT_EQ(files.size(), 4) << error.toStdString();
    EXPECT_EQ(analysis::breakdownPassCount() - before, session->traces.size());
}

TEST(ExportViews, SvgTimelineIsWellFormedXmlWithText)
{
    QTemporaryDir dir;
    const QString file = exportSvg(loadSample("kineto/hta-mi250-minitoy-rocm"),
        ExportView::Timeline, QSize(800, 400), QStringLiteral("minitoy"), dir);
    EXPECT_TRUE(file.endsWith(QStringLiteral("minitoy_timeline.svg"))) << file.toStdString();
    QFile f(file);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&f);
    int textNodes = 0;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == QLatin1String("text"))
            ++textNodes;
    }
    EXPECT_FALSE(xml.hasError()) << xml.errorString().toStdString();
    EXPECT_GT(textNodes, 5);
}

TEST(ExportViews, StepSelectionAndBadSelections)
{
    auto session = loadSample("kineto/hta-mi250-minitoy-rocm");
    const auto analysed =
        std::make_shared<const analysis::SessionAnalysis>(analysis::analyzeSession(*session, {}));
    const auto model = timeline::TimelineModel::build(session, true, analysed);
    QString error;
    const auto step1 = resolveSelection(*model, *analysed, TimeSelection {1, std::nullopt}, &error);
    ASSERT_TRUE(step1);
    // ProfilerStep#1 of this trace lasts 9 288.291 µs.
    EXPECT_EQ(step1->second - step1->first, 9288291);
    EXPECT_FALSE(resolveSelection(*model, *analysed, TimeSelection {99, std::nullopt}, &error));
    EXPECT_TRUE(error.contains(QStringLiteral("99")));
    EXPECT_FALSE(resolveSelection(
        *model, *analysed, TimeSelection {std::nullopt, std::make_pair(5, 5)}, &error));
    const auto range = resolveSelection(
        *model, *analysed, TimeSelection {std::nullopt, std::make_pair(10, 30)}, &error);
    ASSERT_TRUE(range);
    const qint64 zero = model->extent().first;
    EXPECT_EQ(*range, std::make_pair(zero + 10000, zero + 30000));
}

// `stepscope export --view memory` counts its times from the timeline's ruler, as the window's
// Memory panel does (Pipeline.MemoryTimesAreTheRulersTimes): the table's first allocation is
// at the same "Allocated at" in the picture as on the screen.
TEST(ExportViews, MemoryTimesAreOnTheRulersClockAsInTheWindow)
{
    auto session = loadSample("ascend_pt/msinsight-cnn-level2-2rank");
    ASSERT_TRUE(session);
    auto analysed =
        std::make_shared<const analysis::SessionAnalysis>(analysis::analyzeSession(*session, {}));
    const auto model = timeline::TimelineModel::build(session, true, analysed);
    // The panel opens on the first rank with memory data: rank 0, the first trace.
    ASSERT_EQ(session->traces.front()->rank, 0);
    const analysis::MemorySummary *memory = analysis::memoryOfRank(*analysed, 0);
    ASSERT_TRUE(memory && memory->allocations && !memory->allocations->listed.empty());
    const model::Allocation &a = memory->allocations->listed.front().allocation;
    const std::int64_t onRuler = a.allocatedNs + model->offsetNs(0) - model->extent().first;
    const QString expected = QString::fromStdString(analysis::formatDuration(onRuler));

    QTemporaryDir dir;
    ImageRequest request;
    request.size = QSize(1900, 700);
    request.format = ImageFormat::Svg;
    QString error;
    const QStringList files = exportViews(session, {ExportView::Memory}, {}, {}, request,
        dir.path(), QStringLiteral("level2"), &error);
    ASSERT_EQ(files.size(), 1) << error.toStdString();
    const QStringList texts = svgTexts(files[0]);
    EXPECT_TRUE(texts.contains(expected))
        << expected.toStdString() << " not in the exported memory view";
}

// `export --view kernels --step 6` shows step 6's kernels, as the panel's Step chooser does
// (tests/tools/check_kernels.py: 1 258 kernels start in ProfilerStep#6 of rank 0). A title
// names the rank a panel shows (DESIGN.md: "profile, rank, step or range") and the step only
// where the picture shows it alone.
TEST(ExportViews, AStepsKernelsAndTitlesThatSayWhatIsShown)
{
    auto session = loadSample("kineto/hta-ddp-a100-world2-nccl");
    ASSERT_TRUE(session);
    QTemporaryDir dir;
    ImageRequest request;
    request.size = QSize(1600, 500);
    request.format = ImageFormat::Svg;
    QString error;
    const QStringList files = exportViews(session, {ExportView::Kernels, ExportView::Steps},
        TimeSelection {6, std::nullopt}, {}, request, dir.path(), QStringLiteral("ddp"), &error);
    ASSERT_EQ(files.size(), 2) << error.toStdString();
    const QString kernels = svgTexts(files[0]).join(QLatin1Char('\n'));
    EXPECT_TRUE(kernels.contains(QStringLiteral("ddp — kernels, rank 0, step 6")))
        << kernels.toStdString();
    EXPECT_TRUE(kernels.contains(QStringLiteral("1,258 kernels"))) << kernels.toStdString();
    EXPECT_TRUE(kernels.contains(QStringLiteral("in step 6"))) << kernels.toStdString();
    const QString steps = svgTexts(files[1]).join(QLatin1Char('\n'));
    // The Steps panel shows every step of its rank: the title names the rank alone.
    EXPECT_TRUE(steps.contains(QStringLiteral("ddp — steps, rank 0"))) << steps.toStdString();
    EXPECT_FALSE(steps.contains(QStringLiteral("step 6"))) << steps.toStdString();
}

TEST(ExportViews, TheClusterPictureLeavesOutHowToClickARank)
{
    // The window's Cluster summary says a rank opens on a double-click; a picture cannot be
    // clicked, so its copy of the summary ends at the figures.
    QTemporaryDir dir;
    const QString file = exportSvg(loadSample("ascend_pt/msinsight-cnn-level2-2rank"),
        ExportView::Cluster, QSize(1600, 700), QStringLiteral("cnn"), dir);
    ASSERT_FALSE(file.isEmpty());
    const QString text = svgTexts(file).join(QLatin1Char(' '));
    EXPECT_TRUE(text.contains(QStringLiteral("1 communication group."))) << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("Double-click"))) << text.toStdString();
}

// A memory timeline alone has nothing on a time axis: the timeline picture was an empty
// "0 ns … 7 ns" ruler. It is not written, the error says why and which view to ask for, and
// the other views are written as before.
TEST(ExportViews, AMemoryTimelineAloneGetsNoEmptyTimelinePicture)
{
    auto session = loadSample("torch_memory/hta-memory-timeline-raw");
    ASSERT_TRUE(session);
    ASSERT_EQ(session->eventCount(), 0u);
    QTemporaryDir dir;
    ImageRequest request;
    request.size = QSize(600, 400);
    QString error;
    const QStringList alone = exportViews(
        session, {ExportView::Timeline}, {}, {}, request, dir.path(), QStringLiteral("m"), &error);
    EXPECT_TRUE(alone.isEmpty()) << alone.join(QLatin1Char(' ')).toStdString();
    EXPECT_TRUE(error.contains(QStringLiteral("no timeline picture"))) << error.toStdString();
    EXPECT_TRUE(error.contains(QStringLiteral("--view memory"))) << error.toStdString();
    error.clear();
    const QStringList both = exportViews(session, {ExportView::Timeline, ExportView::Memory}, {},
        {}, request, dir.path(), QStringLiteral("m"), &error);
    ASSERT_EQ(both.size(), 1);
    EXPECT_TRUE(both[0].endsWith(QStringLiteral("m_memory.png"))) << both[0].toStdString();
    EXPECT_FALSE(error.isEmpty());
}

/// The memory picture of the DDP rank at the CLI's default size: the charts, laid out empty
/// first, flipped their time labels between ticks of 5 and of 0.5 (a 1 ns window), each flip
/// resizing the plot and refreshing again, until the stack overflowed (`stepscope export
/// … --view memory` crashed).
TEST(ExportViews, TheMemoryPictureOfTheDdpRankIsDrawnAtTheDefaultSize)
{
    auto session = loadSample("kineto/hta-ddp-2rank-rank1-memory");
    ASSERT_TRUE(session);
    QTemporaryDir dir;
    const ImageRequest request; // 1600×900, as the CLI
    QString error;
    const QStringList files = exportViews(
        session, {ExportView::Memory}, {}, {}, request, dir.path(), QStringLiteral("ddp"), &error);
    ASSERT_EQ(files.size(), 1) << error.toStdString();
    const QImage img(files[0]);
    EXPECT_EQ(img.size(), QSize(1600, 900));
    EXPECT_FALSE(isBlank(img));
}

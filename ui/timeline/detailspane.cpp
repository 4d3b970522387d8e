// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "detailspane.h"

#include "analysis/units.h"
#include "ui/text.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>

#include <cmath>

namespace stepscope::ui::timeline {

namespace {

QString row(const QString &key, const QString &value)
{
    return QStringLiteral("<tr><td><b>") + key.toHtmlEscaped() + QStringLiteral("</b></td><td>")
        + value + QStringLiteral("</td></tr>");
}

QString link(const TimelineModel &model, const EventKey &e)
{
    return QStringLiteral("<a href=\"event:%1:%2:%3\">")
               .arg(e.traceIndex)
               .arg(e.trackIndex)
               .arg(e.index)
        + model.nameOf(e).toHtmlEscaped() + QStringLiteral("</a> (")
        + timeText(model.startOf(e) - model.extent().first) + QStringLiteral(")");
}

/// An argument's number as written: integers whole (a 16-digit "External id" or epoch
/// timestamp read "1.62314262363178e+15", its last digit lost), others to 15 digits.
QString numberText(double v)
{
    constexpr double Exact = 9007199254740992.0; // 2^53: every integer below is a double
    if (std::isfinite(v) && std::trunc(v) == v && std::fabs(v) < Exact)
        return QString::number(static_cast<qint64>(v));
    return QString::number(v, 'g', 15);
}

/// An argument that counts bytes: Kineto's `[memory]` "Bytes", "Total Allocated" and "Total
/// Reserved", a copy's "bytes". Its value also reads in binary units ("16777216 (16.0 MiB)").
bool countsBytes(const QString &key)
{
    const QString k = key.toLower();
    return k.contains(QLatin1String("bytes")) || k == QLatin1String("total allocated")
        || k == QLatin1String("total reserved");
}

QString argsTable(std::string_view json)
{
    if (json.empty())
        return {};
    const QJsonDocument doc =
        QJsonDocument::fromJson(QByteArray(json.data(), static_cast<qsizetype>(json.size())));
    if (!doc.isObject())
        return QStringLiteral("<pre>") + qs(json).toHtmlEscaped() + QStringLiteral("</pre>");
    QString html = QStringLiteral("<table cellspacing=2>");
    const QJsonObject obj = doc.object();
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        const QJsonValue v = it.value();
        QString text;
        if (v.isString())
            text = v.toString();
        else if (v.isDouble() && countsBytes(it.key()) && std::fabs(v.toDouble()) >= 1024)
            text = numberText(v.toDouble()) + QStringLiteral(" (")
                + qs(analysis::formatBytes(static_cast<std::int64_t>(v.toDouble())))
                + QStringLiteral(")");
        else if (v.isDouble())
            text = numberText(v.toDouble());
        else if (v.isBool())
            text = v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        else
            text = QString::fromUtf8(QJsonDocument(
                v.isArray() ? QJsonDocument(v.toArray()) : QJsonDocument(v.toObject()))
                                         .toJson(QJsonDocument::Compact));
        html += row(it.key(), text.toHtmlEscaped());
    }
    return html + QStringLiteral("</table>");
}

} // namespace

DetailsPane::DetailsPane(QWidget *parent)
    : QTextBrowser(parent)
{
    setObjectName(QStringLiteral("detailsPane"));
    setOpenLinks(false);
    setPlaceholderText(tr("Click an event on the timeline to see its details."));
    connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        const QStringList parts = url.toString().split(QLatin1Char(':'));
        if (parts.size() == 4 && parts[0] == QLatin1String("event"))
            emit jumpRequested({parts[1].toInt(), parts[2].toInt(), parts[3].toUInt()});
    });
}

void DetailsPane::setModel(std::shared_ptr<const TimelineModel> model)
{
    m_model = std::move(model);
    clear();
}

void DetailsPane::showEvent(const EventKey &event)
{
    if (!m_model || !event.isValid()) {
        clear();
        return;
    }
    setHtml(describe(*m_model, event));
}

QString DetailsPane::describe(const TimelineModel &model, const EventKey &e)
{
    const model::Trace &trace = model.trace(e.traceIndex);
    const model::Track &track = model.track(e);
    const model::TrackInfo &info = track.info();
    QString html = QStringLiteral("<h3>") + model.nameOf(e).toHtmlEscaped()
        + QStringLiteral("</h3><table cellspacing=2>");
    html += row(tr("Category"), qs(model::categoryName(track.category(e.index))));
    html += row(tr("Rank"), QString::number(trace.rank));
    html += row(tr("Process"),
        (info.processName.empty() ? qs(info.processId)
                                  : qs(info.processName) + QStringLiteral(" (") + qs(info.processId)
                    + QStringLiteral(")"))
            .toHtmlEscaped());
    html += row(info.kind == model::TrackKind::DeviceStream ? tr("Stream") : tr("Thread"),
        (info.threadName.empty() ? qs(info.threadId)
                                 : qs(info.threadName) + QStringLiteral(" (") + qs(info.threadId)
                    + QStringLiteral(")"))
            .toHtmlEscaped());
    // From the trace's first event, like the ruler (never an epoch timestamp).
    html += row(tr("Start"), timeText(model.startOf(e) - model.extent().first));
    html += row(tr("Duration"),
        durText(track.duration(e.index))
            + (track.isUnfinished(e.index) ? tr(" (never ended)") : QString()));
    const std::int64_t step = model.stepOf(e);
    html += row(tr("Step"), step >= 0 ? QString::number(step) : tr("–"));
    html += row(tr("Depth"), QString::number(track.row(e.index)));
    html += QStringLiteral("</table>");
    const model::EventRef self {model::TrackId(static_cast<std::uint32_t>(e.trackIndex)), e.index};
    QString incoming;
    QString outgoing;
    for (const model::Flow &f : trace.flows) {
        // Only the event's own flows make text: a Kineto trace has a flow per launch (13 M in
        // a 20 GB file), and escaping every category made each click take half a second.
        if (f.to != self && f.from != self)
            continue;
        const QString cat = qs(trace.strings.view(f.category)).toHtmlEscaped();
        if (f.to == self)
            incoming += QStringLiteral("<li>")
                + link(model, {e.traceIndex, static_cast<int>(f.from.track.value()), f.from.index})
                + QStringLiteral(" <i>") + cat + QStringLiteral("</i></li>");
        if (f.from == self)
            outgoing += QStringLiteral("<li>")
                + link(model, {e.traceIndex, static_cast<int>(f.to.track.value()), f.to.index})
                + QStringLiteral(" <i>") + cat + QStringLiteral("</i></li>");
    }
    if (!incoming.isEmpty())
        html += tr("<p><b>Incoming flows</b></p><ul>") + incoming + QStringLiteral("</ul>");
    if (!outgoing.isEmpty())
        html += tr("<p><b>Outgoing flows</b></p><ul>") + outgoing + QStringLiteral("</ul>");
    if (track.args(e.index).isValid()) {
        html += tr("<p><b>Arguments</b></p>");
        // On-demand args are read back from the profile's file here; a file that changed or
        // vanished since the load gives a message instead.
        std::string json;
        std::string error;
        if (trace.args.read(track.args(e.index), json, &error))
            html += argsTable(json);
        else
            html +=
                QStringLiteral("<p><i>") + qs(error).toHtmlEscaped() + QStringLiteral("</i></p>");
    }
    return html;
}

} // namespace stepscope::ui::timeline

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "clockalignment.h"

#include "analysis/ranks.h"
#include "analysis/units.h"
#include "ui/text.h"
#include "util/countof.h"

namespace stepscope::ui::timeline {

namespace {

QString signedDur(std::int64_t ns)
{
    return (ns > 0 ? QStringLiteral("+") : QString()) + durText(ns);
}

} // namespace

std::vector<RankClock> estimateRankClocks(const model::Session &session)
{
    std::vector<RankClock> out;
    if (session.traces.size() < 2)
        return out;
    const std::vector<analysis::ClockOffset> offsets = analysis::estimateClockOffsets(session);
    out.reserve(offsets.size());
    for (std::size_t i = 0; i < offsets.size(); ++i) {
        const analysis::ClockOffset &o = offsets[i];
        RankClock c;
        c.rank = o.rank;
        c.offsetNs = o.known ? o.offsetNs : 0;
        c.known = o.known;
        c.reference = i == 0;
        c.matched = o.matched;
        c.spreadNs = o.spreadNs;
        out.push_back(c);
    }
    return out;
}

QString clockNote(const RankClock &clock, std::int32_t referenceRank)
{
    if (clock.reference)
        return QStringLiteral("Clock: reference rank; the other ranks are aligned to it "
                              "(View › Raw Clocks shows every rank's own clock).");
    const QString evidence = QStringLiteral("median of %1 matched with rank %2, spread %3")
                                 .arg(QString::fromStdString(util::countOf(
                                     clock.matched, "collective end", "collective ends")))
                                 .arg(referenceRank)
                                 .arg(durText(clock.spreadNs));
    if (!clock.known) {
        if (clock.matched == 0)
            return QStringLiteral("Clock offset unknown, not applied: no collective of this "
                                  "rank matches one of rank %1 by name and order, so its own "
                                  "clock is shown.")
                .arg(referenceRank);
        return QStringLiteral("Clock offset not applied: the evidence is weak (%1 matched with "
                              "rank %2 disagree, spread %3 > 1 ms), so its own clock is shown.")
            .arg(QString::fromStdString(
                util::countOf(clock.matched, "collective end", "collective ends")))
            .arg(referenceRank)
            .arg(durText(clock.spreadNs));
    }
    if (clock.applied)
        return QStringLiteral("Clock offset %1 applied (%2). View › Raw Clocks shows the "
                              "rank's own clock.")
            .arg(signedDur(clock.offsetNs), evidence);
    return QStringLiteral("Raw clock shown: offset %1 not applied (%2). Uncheck View › Raw "
                          "Clocks to align.")
        .arg(signedDur(clock.offsetNs), evidence);
}

} // namespace stepscope::ui::timeline

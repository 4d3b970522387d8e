// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "loadreport.h"

#include <algorithm>

namespace stepscope::model {

std::string_view severityName(Severity s)
{
    switch (s) {
    case Severity::Info:
        return "info";
    case Severity::Warning:
        return "warning";
    case Severity::Error:
        return "error";
    }
    return "unknown";
}

void LoadReport::add(Diagnostic d)
{
    // Linear search: reports hold few distinct problems (repeats merge), so this stays short.
    auto same = [&](const Diagnostic &e) {
        return e.severity == d.severity && e.file == d.file && e.message == d.message;
    };
    if (auto it = std::find_if(m_diagnostics.begin(), m_diagnostics.end(), same);
        it != m_diagnostics.end()) {
        it->count += d.count;
        return;
    }
    m_diagnostics.push_back(std::move(d));
}

void LoadReport::add(Severity severity, std::string file, std::string message, std::int64_t line,
    std::int64_t offset)
{
    Diagnostic d;
    d.severity = severity;
    d.file = std::move(file);
    d.message = std::move(message);
    d.line = line;
    d.offset = offset;
    add(std::move(d));
}

void LoadReport::merge(const LoadReport &other)
{
    for (const Diagnostic &d : other.m_diagnostics)
        add(d);
}

std::uint64_t LoadReport::count(Severity severity) const
{
    std::uint64_t n = 0;
    for (const Diagnostic &d : m_diagnostics) {
        if (d.severity == severity)
            n += d.count;
    }
    return n;
}

std::string LoadReport::toText() const
{
    std::string out;
    for (const Diagnostic &d : m_diagnostics) {
        out += severityName(d.severity);
        out += ": ";
        out += d.file.empty() ? std::string("(load)") : d.file;
        if (d.line > 0) {
            out += ':' + std::to_string(d.line);
            if (d.column > 0)
                out += ':' + std::to_string(d.column);
        } else if (d.offset >= 0) {
            out += " at byte " + std::to_string(d.offset);
        }
        out += ": ";
        out += d.message;
        if (d.count > 1)
            out += " (" + std::to_string(d.count) + " times)";
        out += '\n';
    }
    return out;
}

} // namespace stepscope::model

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "loadreport.h"

#include <cctype>
#include <unordered_set>

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
    std::string key;
    key.reserve(d.file.size() + d.message.size() + 3);
    key += static_cast<char>('0' + static_cast<int>(d.severity));
    key += d.file;
    key += '\0';
    key += d.message;
    const auto [it, added] = m_index.try_emplace(std::move(key), m_diagnostics.size());
    if (!added) {
        m_diagnostics[it->second].count += d.count;
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

std::string diagnosticLine(const Diagnostic &d)
{
    std::string out(severityName(d.severity));
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
    return out;
}

std::string LoadReport::toText() const
{
    std::string out;
    for (const Diagnostic &d : m_diagnostics)
        out += diagnosticLine(d) + '\n';
    return out;
}

std::string messageShape(std::string_view message)
{
    auto digit = [&](std::size_t i) {
        return i < message.size() && std::isdigit(static_cast<unsigned char>(message[i]));
    };
    std::string shape;
    shape.reserve(message.size());
    for (std::size_t i = 0; i < message.size();) {
        if (!digit(i)) {
            shape += message[i++];
            continue;
        }
        while (digit(i)
            || (i < message.size() && (message[i] == '.' || message[i] == ',') && digit(i + 1)))
            ++i;
        shape += '#';
    }
    return shape;
}

std::vector<DiagnosticGroup> groupDiagnostics(
    const std::vector<Diagnostic> &diagnostics, std::size_t keepApart)
{
    std::vector<DiagnosticGroup> shapes;
    std::vector<std::size_t> shapeOf(diagnostics.size());
    std::unordered_map<std::string, std::size_t> byShape;
    for (std::size_t i = 0; i < diagnostics.size(); ++i) {
        const Diagnostic &d = diagnostics[i];
        std::string key = messageShape(d.message);
        key += static_cast<char>('0' + static_cast<int>(d.severity));
        const auto [it, added] = byShape.try_emplace(std::move(key), shapes.size());
        if (added)
            shapes.emplace_back();
        shapeOf[i] = it->second;
        DiagnosticGroup &g = shapes[it->second];
        g.members.push_back(i);
        g.count += d.count;
    }
    std::vector<DiagnosticGroup> groups;
    for (std::size_t i = 0; i < diagnostics.size(); ++i) {
        DiagnosticGroup &shape = shapes[shapeOf[i]];
        if (shape.members.size() <= keepApart) {
            groups.push_back({{i}, diagnostics[i].count, 1});
        } else if (shape.members.front() == i) { // the group stands where its first member does
            std::unordered_set<std::string_view> files;
            for (std::size_t m : shape.members)
                files.insert(diagnostics[m].file);
            shape.files = files.size();
            groups.push_back(shape);
        }
    }
    return groups;
}

std::string groupSuffix(const DiagnosticGroup &group)
{
    if (group.members.size() <= 1)
        return {};
    std::string out = " (and " + std::to_string(group.members.size() - 1) + " more like it";
    if (group.files > 1)
        out += ", in " + std::to_string(group.files) + " files";
    return out + ')';
}

std::string groupedText(const std::vector<Diagnostic> &diagnostics, std::string_view indent)
{
    std::string out;
    for (const DiagnosticGroup &g : groupDiagnostics(diagnostics)) {
        out += indent;
        out += diagnosticLine(diagnostics[g.members.front()]) + groupSuffix(g);
        out += '\n';
    }
    return out;
}

} // namespace stepscope::model

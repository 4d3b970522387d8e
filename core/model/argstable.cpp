// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "argstable.h"

#include <algorithm>
#include <cassert>
#include <numeric>

namespace stepscope::model {

ArgsId ArgsTable::add(std::string_view json)
{
    const auto id = ArgsId(static_cast<std::uint32_t>(m_entries.size()));
    pushEntry(m_text.size());
    // A LEB128 length in front of the text: entries of both kinds can mix.
    std::uint64_t n = json.size();
    do {
        const auto byte = static_cast<unsigned char>(n & 0x7f);
        n >>= 7;
        m_text.push_back(static_cast<char>(byte | (n != 0 ? 0x80 : 0)));
    } while (n != 0);
    m_text.append(json);
    return id;
}

std::uint32_t ArgsTable::addSource(std::shared_ptr<const ArgsSource> source)
{
    for (std::size_t i = 0; i < m_sources.size(); ++i) {
        if (m_sources[i] == source)
            return static_cast<std::uint32_t>(i);
    }
    if (m_sources.size() >= MaxSources || !source)
        return static_cast<std::uint32_t>(-1);
    m_sources.push_back(std::move(source));
    return static_cast<std::uint32_t>(m_sources.size() - 1);
}

ArgsId ArgsTable::addRecord(std::uint32_t source, std::uint64_t offset)
{
    assert(source < m_sources.size() && offset < MaxRecordOffset);
    const auto id = ArgsId(static_cast<std::uint32_t>(m_entries.size()));
    pushEntry(RecordBit | (static_cast<std::uint64_t>(source) << SourceShift) | offset);
    return id;
}

std::string_view ArgsTable::view(ArgsId id) const
{
    if (!id.isValid() || id.value() >= m_entries.size())
        return {};
    const std::uint64_t e = entry(id);
    if (e & RecordBit)
        return {};
    std::size_t pos = e;
    std::uint64_t n = 0;
    for (int shift = 0; pos < m_text.size(); shift += 7) {
        const auto byte = static_cast<unsigned char>(m_text[pos++]);
        n |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
        if ((byte & 0x80) == 0)
            break;
    }
    return std::string_view(m_text).substr(pos, n);
}

bool ArgsTable::isOnDemand(ArgsId id) const
{
    return id.isValid() && id.value() < m_entries.size() && (entry(id) & RecordBit);
}

std::int64_t ArgsTable::recordOffset(ArgsId id) const
{
    if (!isOnDemand(id))
        return -1;
    return static_cast<std::int64_t>(entry(id) & (MaxRecordOffset - 1));
}

bool ArgsTable::read(ArgsId id, std::string &json, std::string *error) const
{
    json.clear();
    if (!isOnDemand(id)) {
        json.assign(view(id));
        return true;
    }
    const std::uint64_t e = entry(id);
    const auto source = static_cast<std::size_t>((e & ~RecordBit) >> SourceShift);
    std::string why;
    if (source < m_sources.size() && m_sources[source]->read(e & (MaxRecordOffset - 1), json, why))
        return true;
    json.clear();
    if (error)
        *error = why.empty() ? std::string("the args could not be read") : why;
    return false;
}

std::string ArgsTable::text(ArgsId id) const
{
    std::string json;
    read(id, json);
    return json;
}

void ArgsSource::readMany(
    const std::vector<std::uint64_t> &offsets, std::vector<std::string> &json) const
{
    json.resize(offsets.size());
    std::string error;
    for (std::size_t k = 0; k < offsets.size(); ++k) {
        if (!read(offsets[k], json[k], error))
            json[k].clear();
    }
}

std::vector<std::string> ArgsTable::readMany(const std::vector<ArgsId> &ids) const
{
    std::vector<std::string> out(ids.size());
    std::vector<std::size_t> order(ids.size());
    std::iota(order.begin(), order.end(), std::size_t {0});
    // By source, then offset: each source is asked once, for its records in file order.
    const auto key = [&](std::size_t k) {
        const ArgsId id = ids[k];
        return isOnDemand(id) ? entry(id) & ~RecordBit : 0;
    };
    std::stable_sort(
        order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
    std::vector<std::uint64_t> offsets;
    std::vector<std::string> texts;
    for (std::size_t first = 0; first < order.size();) {
        const ArgsId id = ids[order[first]];
        if (!isOnDemand(id)) {
            read(id, out[order[first++]]);
            continue;
        }
        const std::uint64_t source = key(order[first]) >> SourceShift;
        std::size_t end = first;
        offsets.clear();
        for (; end < order.size() && isOnDemand(ids[order[end]])
             && key(order[end]) >> SourceShift == source;
             ++end)
            offsets.push_back(static_cast<std::uint64_t>(recordOffset(ids[order[end]])));
        if (source < m_sources.size()) {
            m_sources[source]->readMany(offsets, texts);
            texts.resize(offsets.size()); // "" for any a source left out
            for (std::size_t k = first; k < end; ++k)
                out[order[k]] = std::move(texts[k - first]);
        }
        first = end;
    }
    return out;
}

std::vector<std::string> ArgsTable::readAll() const
{
    std::vector<ArgsId> ids(m_entries.size());
    for (std::size_t i = 0; i < ids.size(); ++i)
        ids[i] = ArgsId(static_cast<std::uint32_t>(i));
    return readMany(ids);
}

std::size_t ArgsTable::memoryBytes() const
{
    std::size_t bytes = m_text.capacity() + m_entries.memoryBytes();
    for (const auto &s : m_sources)
        bytes += s->memoryBytes();
    return bytes;
}

ArgsId ArgsTable::addFrom(const ArgsTable &other, ArgsId id)
{
    if (!other.isOnDemand(id))
        return add(other.view(id));
    const std::uint64_t e = other.entry(id);
    const auto source = static_cast<std::size_t>((e & ~RecordBit) >> SourceShift);
    const std::uint32_t mine = addSource(other.m_sources[source]);
    if (mine == static_cast<std::uint32_t>(-1))
        return add(other.text(id)); // too many files: keep this one's args resident
    return addRecord(mine, e & (MaxRecordOffset - 1));
}

std::vector<ArgsId> ArgsTable::merge(const ArgsTable &other)
{
    std::vector<ArgsId> map;
    map.reserve(other.size());
    // No exact reserve of m_entries: merged chunk by chunk, it must grow geometrically.
    if (other.m_sources.empty()) {
        // Only resident entries: their length-prefixed text moves as one block.
        const std::uint64_t base = m_text.size();
        m_text.append(other.m_text);
        for (std::size_t i = 0; i < other.size(); ++i) {
            map.emplace_back(static_cast<std::uint32_t>(m_entries.size()));
            pushEntry(base + other.entry(ArgsId(static_cast<std::uint32_t>(i))));
        }
        return map;
    }
    for (std::size_t i = 0; i < other.size(); ++i)
        map.push_back(addFrom(other, ArgsId(static_cast<std::uint32_t>(i))));
    return map;
}

} // namespace stepscope::model

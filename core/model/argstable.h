// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "ids.h"
#include "packedcolumn.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope::model {

/// Where the args of on-demand entries are read from: one file an importer read, which
/// re-reads an event's args from the event's record offset (its byte offset in the file, or
/// in the decompressed stream). Implemented by the importer that made the entries
/// (core/import/chrometrace/recordargs.h); the model only asks. Thread-safe.
class ArgsSource
{
public:
    virtual ~ArgsSource() = default;
    /// The args JSON of the event whose record starts at `offset`, as the importer would have
    /// kept it. False with `error` set (a sentence for the user) when it cannot be read: the
    /// file changed or vanished since the load.
    virtual bool read(std::uint64_t offset, std::string &json, std::string &error) const = 0;
    /// read() of each of `offsets` (ascending) into `json` (json[k] for offsets[k], "" where
    /// a read fails). A source may read nearby records together, and check once that its
    /// file is unchanged; this one reads them one by one.
    virtual void readMany(
        const std::vector<std::uint64_t> &offsets, std::vector<std::string> &json) const;
    /// Bytes this source keeps resident (a gzip seek index, a cache).
    virtual std::size_t memoryBytes() const = 0;
};

/// Cold per-event data: each event's `args` object, either kept as compact JSON text in one
/// arena (resident entries) or as a record offset into a file it is read back from when asked
/// (on-demand entries, about 4 bytes each in file order: Chrome-trace files).
///
/// Invariants: ArgsId values are dense in order of add() / addRecord(). A view() stays valid
/// until the next add() (the arena may grow); a loaded Trace never adds, so its views live as
/// long as it. Reads (text(), read(), view()) are safe from any thread.
class ArgsTable
{
public:
    ArgsTable() = default;
    ArgsTable(const ArgsTable &) = delete;
    ArgsTable &operator=(const ArgsTable &) = delete;
    ArgsTable(ArgsTable &&) noexcept = default;
    ArgsTable &operator=(ArgsTable &&) noexcept = default;

    /// Sources an on-demand entry may name; more sources than this are refused by addSource.
    static constexpr std::uint32_t MaxSources = 128;
    /// Record offsets must be below this (64 PiB).
    static constexpr std::uint64_t MaxRecordOffset = 1ull << 56;

    ArgsId add(std::string_view json);
    /// A source for addRecord(); an invalid value (std::uint32_t(-1)) when MaxSources are in
    /// use. Adding the same source twice returns its first index.
    std::uint32_t addSource(std::shared_ptr<const ArgsSource> source);
    /// An on-demand entry: `source` from addSource(), `offset` < MaxRecordOffset.
    ArgsId addRecord(std::uint32_t source, std::uint64_t offset);
    void reserve(std::size_t entries) { m_entries.reserve(entries); }
    /// Gives back the room beyond the entries (left by growth when a reader appends records
    /// as a file's chunks come, not knowing how many there will be).
    void shrinkToFit()
    {
        m_entries.shrink_to_fit();
        m_text.shrink_to_fit();
    }

    /// The args of `id` whichever kind of entry it is: read from the file for an on-demand
    /// entry. False with `error` set when that read fails; true with "" for an invalid id.
    bool read(ArgsId id, std::string &json, std::string *error = nullptr) const;
    /// read(), with "" when it fails.
    std::string text(ArgsId id) const;
    /// Every entry's text, indexed by ArgsId value ("" where a read fails), reading on-demand
    /// entries in file order (so a gzip file is inflated about once): for dumps and analyses
    /// that look at many events.
    std::vector<std::string> readAll() const;
    /// The text of `ids` (result[k] for ids[k], "" where a read fails), read in file order.
    std::vector<std::string> readMany(const std::vector<ArgsId> &ids) const;
    /// Text of a resident entry; empty for an on-demand entry (use text() or read()).
    std::string_view view(ArgsId id) const;
    bool isOnDemand(ArgsId id) const;
    /// The record offset of an on-demand entry, -1 for a resident one.
    std::int64_t recordOffset(ArgsId id) const;

    std::size_t size() const { return m_entries.size(); }
    std::size_t sourceCount() const { return m_sources.size(); }
    /// Arena, entries and the sources' resident bytes.
    std::size_t memoryBytes() const;
    /// Appends other's entries; result[i] is this table's id for other's id i.
    std::vector<ArgsId> merge(const ArgsTable &other);
    /// Appends other's entry `id` (resident text copied, on-demand entries keep their record).
    ArgsId addFrom(const ArgsTable &other, ArgsId id);

private:
    static constexpr std::uint64_t RecordBit = 1ull << 63;
    static constexpr int SourceShift = 56;

    std::string m_text; // resident entries: varint length + text
    std::uint64_t entry(ArgsId id) const
    {
        return static_cast<std::uint64_t>(m_entries[id.value()]);
    }
    void pushEntry(std::uint64_t entry) { m_entries.push_back(static_cast<std::int64_t>(entry)); }

    /// Text begin, or RecordBit | source | offset, as int64 bit patterns: packed, since
    /// entries are added in text or file order.
    PackedInt64 m_entries;
    std::vector<std::shared_ptr<const ArgsSource>> m_sources;
};

} // namespace stepscope::model

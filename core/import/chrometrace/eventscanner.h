// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "bytesource.h"
#include "chunk.h"
#include "model/loadreport.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace stepscope::import::chrometrace {

/// Cuts the event array of a Chrome trace into chunks of whole events, without parsing them.
///
/// Algorithm: one pass over the bytes. Outside the event array it walks the top level
/// (bare array, or an object whose "traceEvents" key holds the array; other keys are kept as
/// raw JSON text). Inside the array it finds each event's closing brace by tracking string
/// state, escapes and bracket depth, and appends whole events to the current chunk until it
/// holds about `chunkBytes`. An element that is not an object (`1`, `"x"`) is skipped alone with
/// its offset and marks the chunk dirty (parsed event by event). More than 64 KiB of filler
/// (blanks, commas, skipped elements) ends the chunk and is skipped without being copied. The
/// only memory held is one read block plus the chunk being filled. Offsets are 64-bit.
struct RangeScan;

/// How far the search for one event's closing brace has come: the search goes on across
/// read blocks (EventScanner) or window extensions (rangescan.cpp).
struct EventBraces
{
    int depth = 1; ///< open '{' / '[' after the event's own '{'
    bool inString = false;
    bool escape = false;
};

/// Walks [p, e) through an event's bytes, tracking strings and escapes. Returns the byte past
/// the event's closing brace (state.depth is then 0), or e when the event goes on past it.
const char *scanEventBytes(const char *p, const char *e, EventBraces &state);

class EventScanner
{
public:
    struct Problem
    {
        model::Severity severity = model::Severity::Warning;
        std::int64_t offset = -1;
        std::string message;
    };

    EventScanner(ByteSource &source, std::size_t chunkBytes);

    /// Fills `chunk` with the next events; false when there are no more.
    bool next(Chunk &chunk);

    /// Reads the top level up to the first byte inside the event array; false when there is
    /// no event array. offset() is then that byte's offset (ranges of a plain file are cut
    /// from there on by workers, rangescan.h).
    bool enterEventArray();
    /// After the event array was read elsewhere (rangescan.h): takes over what its ranges
    /// found (skipped elements, truncation), in file order.
    void absorb(const RangeScan &scan);
    /// The array was closed at `arrayEnd`: goes on with the top level after it (the object
    /// form's other keys), reading from there. False when the source cannot seek.
    bool resumeAfterEventArray(std::uint64_t arrayEnd);
    /// The file ended inside the event array (scanned elsewhere): nothing more to read.
    void endInsideEventArray();

    bool objectForm() const { return m_objectForm; }
    bool sawEventArray() const { return m_sawEventArray; }
    bool truncated() const { return m_truncated; }
    /// Top-level keys other than traceEvents, with their raw JSON value text.
    const std::vector<std::pair<std::string, std::string>> &otherKeys() const { return m_keys; }
    const std::vector<Problem> &problems() const { return m_problems; }
    /// Decompressed bytes read so far.
    std::uint64_t offset() const { return m_base + m_pos; }

private:
    enum class State { Start, ObjectKeys, Events, Done };

    bool fill();
    int get();
    int peek();
    void skipBlanks();
    bool readKey(std::string &key);
    void readValue(std::string &value);
    void topLevel();
    /// Skips one array element that is not an object; returns what it was ("a number").
    const char *skipElement();
    void problem(model::Severity severity, std::int64_t offset, std::string message);

    ByteSource &m_source;
    std::size_t m_chunkBytes;
    /// The read block, not zero-filled: a small file touches only the pages it fills (a
    /// zeroed 1 MiB block per file was most of the cost of opening a small trace).
    std::unique_ptr<char[]> m_buf;
    std::size_t m_pos = 0;
    std::size_t m_len = 0;
    std::uint64_t m_base = 0; // file offset of m_buf[0]
    bool m_eof = false;
    State m_state = State::Start;
    bool m_objectForm = false;
    bool m_sawEventArray = false;
    bool m_truncated = false;
    std::uint64_t m_chunkIndex = 0;
    std::uint64_t m_junkBytes = 0;
    std::uint64_t m_junkElements = 0;
    std::uint64_t m_gapBytes = 0; // filler since the last event ended

    // Capture of the chunk being filled: bytes m_buf[m_capStart, m_pos) not yet copied.
    Chunk *m_chunk = nullptr;
    bool m_capturing = false;
    std::size_t m_capStart = 0;

    std::vector<std::pair<std::string, std::string>> m_keys;
    std::vector<Problem> m_problems;
};

} // namespace stepscope::import::chrometrace

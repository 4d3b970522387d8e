// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "recordargs.h"

#include "chunk.h"
#include "gzipindex.h"
#include "tracereader.h"

#include <simdjson.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace stepscope::import::chrometrace {

namespace {

/// The parser only needs a dialect to classify; args do not depend on it.
class PlainDialect final : public Dialect
{
public:
    model::TrackKind classifyTrack(const ProcessMeta &, const ThreadMeta &) const override
    {
        return model::TrackKind::HostThread;
    }
    EventClass classifyEvent(const EventFields &) const override { return {}; }
};

const PlainDialect plainDialect;

/// Length of the JSON object at the start of `text` (as the event scanner delimits events:
/// strings, escapes, bracket depth), 0 when it does not end within `text`.
std::size_t objectLength(std::string_view text)
{
    int depth = 0;
    bool inString = false;
    bool escape = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (escape)
                escape = false;
            else if (c == '\\')
                escape = true;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            if (--depth == 0)
                return i + 1;
        }
    }
    return 0;
}

} // namespace

RecordArgs::RecordArgs(
    std::filesystem::path file, std::string name, std::shared_ptr<const GzipIndex> index)
    : m_file(std::move(file))
    , m_name(std::move(name))
    , m_index(std::move(index))
{
    std::error_code sizeError;
    std::error_code timeError;
    m_size = std::filesystem::file_size(m_file, sizeError);
    m_time = std::filesystem::last_write_time(m_file, timeError);
    m_stamped = !sizeError && !timeError;
}

RecordArgs::~RecordArgs()
{
    if (m_handle)
        std::fclose(m_handle);
}

std::size_t RecordArgs::memoryBytes() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return (m_index ? m_index->memoryBytes() : 0) + m_bytes.capacity();
}

bool RecordArgs::unchanged(std::string &error) const
{
    std::error_code sizeError;
    std::error_code timeError;
    const std::uintmax_t size = std::filesystem::file_size(m_file, sizeError);
    const auto time = std::filesystem::last_write_time(m_file, timeError);
    if (sizeError || timeError) {
        error = m_name
            + " can no longer be read (moved or deleted since the profile was loaded): reopen "
              "the profile to see these args";
        return false;
    }
    if (!m_stamped || size != m_size || time != m_time) {
        error = m_name
            + " changed since the profile was loaded: its args cannot be read back; reopen the "
              "profile to see them";
        return false;
    }
    return true;
}

bool RecordArgs::bytesAt(
    std::uint64_t offset, std::size_t size, std::string &bytes, std::string &error) const
{
    if (m_index)
        return m_index->read(m_file, offset, size, bytes, error);
    if (!m_handle)
        m_handle = std::fopen(m_file.c_str(), "rb");
    if (!m_handle || fseeko(m_handle, static_cast<off_t>(offset), SEEK_SET) != 0) {
        error = m_name + " cannot be opened to read the args";
        return false;
    }
    bytes.resize(size);
    bytes.resize(std::fread(bytes.data(), 1, size, m_handle));
    return true;
}

bool RecordArgs::eventAt(
    std::uint64_t offset, std::size_t firstRead, std::string_view &event, std::string &error) const
{
    // Bytes read for an earlier record of the same call may hold this one whole.
    if (offset >= m_bytesAt && offset - m_bytesAt < m_bytes.size()) {
        const std::string_view rest =
            std::string_view(m_bytes).substr(static_cast<std::size_t>(offset - m_bytesAt));
        if (rest.front() == '{') {
            if (const std::size_t length = objectLength(rest); length > 0) {
                event = rest.substr(0, length);
                return true;
            }
        }
    }
    std::size_t want = firstRead;
    std::size_t length = 0;
    for (;;) {
        m_bytesAt = offset;
        if (!bytesAt(offset, want, m_bytes, error)) {
            m_bytes.clear();
            return false;
        }
        if (m_bytes.empty() || m_bytes.front() != '{') {
            error = "no event at byte " + std::to_string(offset) + " of " + m_name
                + " any more: the file changed since the profile was loaded";
            return false;
        }
        length = objectLength(m_bytes);
        if (length > 0 || m_bytes.size() < want || want >= MaxEventBytes)
            break;
        want = std::min(want * 8, MaxEventBytes); // never more than the largest event
    }
    if (length == 0) {
        error = "the event at byte " + std::to_string(offset) + " of " + m_name
            + " does not end where expected: the file changed since the profile was loaded?";
        return false;
    }
    event = std::string_view(m_bytes).substr(0, length);
    return true;
}

bool RecordArgs::argsOf(
    std::uint64_t offset, std::string_view event, std::string &json, std::string &error) const
{
    Chunk chunk;
    chunk.fileOffset = offset;
    chunk.text.reserve(event.size() + 2 + simdjson::SIMDJSON_PADDING);
    chunk.text.push_back('[');
    chunk.text.append(event);
    chunk.text.push_back(']');
    chunk.jsonSize = chunk.text.size();
    chunk.text.append(simdjson::SIMDJSON_PADDING, ' ');
    chunk.events.emplace_back(1U, static_cast<std::uint32_t>(1 + event.size()));
    ParseSettings settings;
    settings.dialect = &plainDialect;
    settings.file = m_name;
    settings.keepArgs = true;
    if (!m_parser)
        m_parser = std::make_unique<ChunkParser>();
    const ChunkResult result = m_parser->parse(chunk, settings);
    if (result.args.size() == 0) {
        error = "the event at byte " + std::to_string(offset) + " of " + m_name
            + " has no args any more: the file changed since the profile was loaded?";
        return false;
    }
    json.assign(result.args.view(model::ArgsId(0)));
    return true;
}

bool RecordArgs::read(std::uint64_t offset, std::string &json, std::string &error) const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    m_bytes.clear(); // each call reads the file again: it may have changed since the last
    if (!unchanged(error))
        return false;
    std::string_view event;
    const bool ok = eventAt(offset, 4096, event, error) && argsOf(offset, event, json, error);
    if (m_bytes.capacity() > (1u << 20))
        std::string().swap(m_bytes); // a huge event's buffer is not kept
    return ok;
}

void RecordArgs::readMany(
    const std::vector<std::uint64_t> &offsets, std::vector<std::string> &json) const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    json.assign(offsets.size(), std::string());
    m_bytes.clear();
    std::string error;
    if (!unchanged(error))
        return;
    for (std::size_t k = 0; k < offsets.size(); ++k) {
        std::string_view event;
        if (!eventAt(offsets[k], WindowBytes, event, error)
            || !argsOf(offsets[k], event, json[k], error))
            json[k].clear();
    }
    // Not kept: a thousand-rank session holds a source per file.
    std::string().swap(m_bytes);
}

} // namespace stepscope::import::chrometrace

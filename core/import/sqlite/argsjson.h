// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Builds the small JSON object an event's args are stored as (model::ArgsTable), from the
// columns of a database row. One buffer is reused for every row.

#include <cstdint>
#include <string>
#include <string_view>

namespace stepscope::import::sqlite {

class ArgsJson
{
public:
    ArgsJson &begin()
    {
        m_text.assign("{");
        return *this;
    }
    ArgsJson &text(std::string_view key, std::string_view value)
    {
        this->key(key);
        quoted(value);
        return *this;
    }
    ArgsJson &number(std::string_view key, std::int64_t value)
    {
        this->key(key);
        m_text += std::to_string(value);
        return *this;
    }
    /// Closes the object; valid until the next begin().
    std::string_view end()
    {
        m_text += '}';
        return m_text;
    }

private:
    void key(std::string_view k)
    {
        if (m_text.size() > 1)
            m_text += ',';
        quoted(k);
        m_text += ':';
    }
    void quoted(std::string_view s)
    {
        m_text += '"';
        for (char c : s) {
            const auto u = static_cast<unsigned char>(c);
            if (c == '"' || c == '\\') {
                m_text += '\\';
                m_text += c;
            } else if (u < 0x20) {
                static const char *hex = "0123456789abcdef";
                m_text += "\\u00";
                m_text += hex[u >> 4];
                m_text += hex[u & 15];
            } else {
                m_text += c;
            }
        }
        m_text += '"';
    }

    std::string m_text;
};

} // namespace stepscope::import::sqlite

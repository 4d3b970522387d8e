// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "argscan.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace stepscope::import::chrometrace {

namespace {

bool isBlank(char c) // std::isspace in the C locale
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

/// What follows a quoted key that ends before `p`: not a key (no ':'), or the key's integer
/// value (nothing when it is not an integer).
struct AfterKey
{
    bool isKey = false;
    std::optional<std::int64_t> value;
};

/// The integer a key's value starting at text[p] holds (`123`, `"123"`), or nothing.
std::optional<std::int64_t> intValue(std::string_view text, std::size_t p)
{
    if (p < text.size() && text[p] == '"')
        ++p;
    bool negative = false;
    if (p < text.size() && text[p] == '-') {
        negative = true;
        ++p;
    }
    std::int64_t v = 0;
    std::size_t digits = 0;
    while (p < text.size() && text[p] >= '0' && text[p] <= '9') {
        if (v > (INT64_MAX - 9) / 10)
            return std::nullopt;
        v = v * 10 + (text[p] - '0');
        ++p;
        ++digits;
    }
    if (digits == 0)
        return std::nullopt;
    // The number must end here: a fraction or an exponent is not an integer.
    if (p < text.size() && text[p] != ',' && text[p] != '}' && text[p] != '"' && !isBlank(text[p]))
        return std::nullopt;
    return negative ? -v : v;
}

AfterKey readValue(std::string_view text, std::size_t p)
{
    AfterKey out;
    while (p < text.size() && isBlank(text[p]))
        ++p;
    if (p >= text.size() || text[p] != ':')
        return out; // the text was a value, not a key
    out.isKey = true;
    ++p;
    while (p < text.size() && isBlank(text[p]))
        ++p;
    out.value = intValue(text, p);
    return out;
}

/// The first '"' in [p, e), or e.
const char *findQuote(const char *p, const char *e)
{
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    for (; e - p >= 16; p += 16) {
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
        const int hits = _mm_movemask_epi8(_mm_cmpeq_epi8(bytes, quote));
        if (hits != 0)
            return p + __builtin_ctz(static_cast<unsigned>(hits));
    }
#endif
    while (p < e && *p != '"')
        ++p;
    return p;
}

} // namespace

std::optional<std::int64_t> argInt(std::string_view argsJson, std::string_view key)
{
    std::optional<std::int64_t> value;
    argInts(argsJson, &key, &value, 1);
    return value;
}

void argInts(std::string_view argsJson, const std::string_view *keys,
    std::optional<std::int64_t> *values, std::size_t count)
{
    // Every '"' may open one of the keys (as `"key"` found anywhere would); the first place a
    // key is followed by ':' decides its value. One pass for all keys: the Kineto dialect
    // reads three keys of every event.
    constexpr std::size_t MaxKeys = 8;
    bool decided[MaxKeys] = {};
    std::size_t open = count;
    for (std::size_t i = 0; i < count; ++i) {
        values[i].reset();
        if (i >= MaxKeys) { // beyond the one pass: each on its own
            values[i] = argInt(argsJson, keys[i]);
            --open;
        }
    }
    const char *const begin = argsJson.data();
    const char *const end = begin + argsJson.size();
    for (const char *q = findQuote(begin, end); open > 0 && q < end; q = findQuote(q + 1, end)) {
        const auto rest = static_cast<std::size_t>(end - q - 1);
        for (std::size_t i = 0; i < count && i < MaxKeys; ++i) {
            const std::string_view key = keys[i];
            if (decided[i] || rest < key.size() + 1 || q[1 + key.size()] != '"'
                || key.compare(0, key.size(), q + 1, key.size()) != 0)
                continue;
            const AfterKey after =
                readValue(argsJson, static_cast<std::size_t>(q - begin) + key.size() + 2);
            if (!after.isKey)
                continue;
            values[i] = after.value;
            decided[i] = true;
            --open;
        }
    }
}

void argInts(std::string_view argsJson, const std::vector<ArgMember> *members,
    const std::string_view *keys, std::optional<std::int64_t> *values, std::size_t count)
{
    if (!members) {
        argInts(argsJson, keys, values, count);
        return;
    }
    for (std::size_t i = 0; i < count; ++i) {
        values[i].reset();
        for (const ArgMember &m : *members) {
            if (m.key == keys[i]) { // the first member of the key decides, as in the text
                values[i] = intValue(m.value, 0);
                break;
            }
        }
    }
}

} // namespace stepscope::import::chrometrace

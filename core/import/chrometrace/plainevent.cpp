// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "plainevent.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <cstring>

namespace stepscope::import::chrometrace {

using fields::RawEvent;
using fields::Scalar;

namespace {

constexpr int MaxDepth = 64;

bool isBlank(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

[[gnu::always_inline]] inline const char *skipBlanks(const char *p, const char *e)
{
    while (p < e && isBlank(*p))
        ++p;
    return p;
}

/// `p` at a string's opening quote: the byte after its closing quote, or null when the
/// string holds a backslash, a control byte or a byte outside ASCII (simdjson's to read).
[[gnu::always_inline]] inline const char *plainString(const char *p, const char *e)
{
    ++p;
#if defined(__SSE2__)
    // Signed bytes below 0x20 are the control bytes and every byte from 0x80 on.
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(0x20);
    for (; e - p >= 16; p += 16) {
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
        const __m128i stop =
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(b, quote), _mm_cmpeq_epi8(b, backslash)),
                _mm_cmplt_epi8(b, space));
        const int hits = _mm_movemask_epi8(stop);
        if (hits != 0) {
            p += __builtin_ctz(static_cast<unsigned>(hits));
            return *p == '"' ? p + 1 : nullptr;
        }
    }
#endif
    for (; p < e; ++p) {
        const auto c = static_cast<unsigned char>(*p);
        if (c == '"')
            return p + 1;
        if (c == '\\' || c < 0x20 || c >= 0x80)
            return nullptr;
    }
    return nullptr;
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

/// A number in JSON's grammar at `p`: the byte after it, or null.
[[gnu::always_inline]] inline const char *plainNumber(const char *p, const char *e)
{
    if (p < e && *p == '-')
        ++p;
    if (p >= e || !isDigit(*p))
        return nullptr;
    if (*p == '0') {
        ++p;
    } else {
        while (p < e && isDigit(*p))
            ++p;
    }
    if (p < e && *p == '.') {
        ++p;
        if (p >= e || !isDigit(*p))
            return nullptr;
        while (p < e && isDigit(*p))
            ++p;
    }
    if (p < e && (*p == 'e' || *p == 'E')) {
        ++p;
        if (p < e && (*p == '+' || *p == '-'))
            ++p;
        if (p >= e || !isDigit(*p))
            return nullptr;
        while (p < e && isDigit(*p))
            ++p;
    }
    return p;
}

const char *plainWord(const char *p, const char *e, std::string_view word)
{
    if (static_cast<std::size_t>(e - p) < word.size() || std::string_view(p, word.size()) != word)
        return nullptr;
    return p + word.size();
}

enum class Kind { String, Number, Word, Composite };

struct Value
{
    Kind kind = Kind::Word;
    const char *begin = nullptr;
    const char *end = nullptr; ///< after the value (a composite: after its closing bracket)
};

/// Any JSON value at `p` (not a blank), checked all through; false when it is not plain.
bool plainValue(const char *p, const char *e, Value &out, int depth);

/// The members of the object whose `{` is at `p`. For each, `member(key, at)` reads the value
/// that starts at `at` (not a blank) and returns the byte after it, or null when it is not
/// plain. Returns the byte after the object's `}`, or null.
template <class Member> const char *plainMembers(const char *p, const char *e, Member &&member)
{
    p = skipBlanks(p + 1, e);
    if (p < e && *p == '}')
        return p + 1;
    for (;;) {
        if (p >= e || *p != '"')
            return nullptr;
        const char *const keyEnd = plainString(p, e);
        if (!keyEnd)
            return nullptr;
        const std::string_view key(p + 1, static_cast<std::size_t>(keyEnd - p - 2));
        p = skipBlanks(keyEnd, e);
        if (p >= e || *p != ':')
            return nullptr;
        p = skipBlanks(p + 1, e);
        if (p >= e || !(p = member(key, p)))
            return nullptr;
        p = skipBlanks(p, e);
        if (p >= e)
            return nullptr;
        if (*p == '}')
            return p + 1;
        if (*p != ',')
            return nullptr;
        p = skipBlanks(p + 1, e);
    }
}

/// The members or elements of the object or array that opens at `p`.
const char *plainComposite(const char *p, const char *e, int depth)
{
    if (depth >= MaxDepth)
        return nullptr;
    const auto value = [e, depth](const char *at) -> const char * {
        Value v;
        return plainValue(at, e, v, depth + 1) ? v.end : nullptr;
    };
    if (*p == '{')
        return plainMembers(p, e, [&](std::string_view, const char *at) { return value(at); });
    p = skipBlanks(p + 1, e);
    if (p < e && *p == ']')
        return p + 1;
    for (;;) {
        if (p >= e || !(p = value(p)))
            return nullptr;
        p = skipBlanks(p, e);
        if (p >= e)
            return nullptr;
        if (*p == ']')
            return p + 1;
        if (*p != ',')
            return nullptr;
        p = skipBlanks(p + 1, e);
    }
}

bool plainValue(const char *p, const char *e, Value &out, int depth)
{
    out.begin = p;
    switch (*p) {
    case '"':
        out.kind = Kind::String;
        out.end = plainString(p, e);
        break;
    case '{':
    case '[':
        out.kind = Kind::Composite;
        out.end = plainComposite(p, e, depth);
        break;
    case 't':
        out.end = plainWord(p, e, "true");
        break;
    case 'f':
        out.end = plainWord(p, e, "false");
        break;
    case 'n':
        out.end = plainWord(p, e, "null");
        break;
    default:
        out.kind = Kind::Number;
        out.end = plainNumber(p, e);
        break;
    }
    return out.end != nullptr;
}

/// What readScalar stores for the value (the flags it leaves alone stay as they were).
/// `next` is where the token after the value starts: simdjson's raw text of an object or an
/// array runs up to it.
void setScalar(Scalar &s, const Value &v, const char *next)
{
    s.present = true;
    switch (v.kind) {
    case Kind::String:
        s.isString = true;
        s.text = std::string_view(v.begin + 1, static_cast<std::size_t>(v.end - v.begin - 2));
        break;
    case Kind::Number:
    case Kind::Word:
        s.text = std::string_view(v.begin, static_cast<std::size_t>(v.end - v.begin));
        s.badType = v.kind == Kind::Word;
        break;
    case Kind::Composite:
        s.badType = true;
        s.text = std::string_view(v.begin, static_cast<std::size_t>(next - v.begin));
        break;
    }
}

/// The args object at `p` (its `{`), checked as plainValue checks it, its members listed as
/// it goes. `flat`: no member's value holds an object (no key of the text is missing from
/// the list). The byte after its `}`, or null.
const char *argsObject(const char *p, const char *e, std::vector<ArgMember> &members, bool &flat)
{
    members.clear();
    flat = true;
    return plainMembers(p, e, [&](std::string_view key, const char *at) -> const char * {
        Value v;
        if (!plainValue(at, e, v, 2))
            return nullptr;
        const auto size = static_cast<std::size_t>(v.end - v.begin);
        if (v.kind == Kind::Composite && std::memchr(v.begin, '{', size))
            flat = false;
        members.push_back({key, std::string_view(v.begin, size)});
        return v.end;
    });
}

} // namespace

bool readPlainEvent(
    std::string_view text, RawEvent &ev, fields::Extras &extras, std::vector<ArgMember> &members)
{
    extras.clear();
    members.clear();
    const char *const e = text.data() + text.size();
    const char *const p = skipBlanks(text.data(), e);
    if (p >= e || *p != '{')
        return false;
    const char *const end = plainMembers(p, e, [&](std::string_view key, const char *at) {
        Value v;
        const bool argsObjectHere = *at == '{' && key == "args";
        if (argsObjectHere) {
            v.kind = Kind::Composite;
            v.begin = at;
            v.end = argsObject(at, e, members, ev.flatArgs);
        } else if (key == "id2") {
            return static_cast<const char *>(nullptr); // its "local" / "global": simdjson's
        } else {
            plainValue(at, e, v, 1);
        }
        if (!v.end)
            return v.end;
        const char *const next = skipBlanks(v.end, e);
        if (argsObjectHere) {
            ev.args = std::string_view(v.begin, static_cast<std::size_t>(next - v.begin));
            ev.hasArgs = true;
        } else if (key == "args") {
            // not an object: no args (readEvent)
        } else if (Scalar *s = fields::scalarField(ev, key)) {
            setScalar(*s, v, next);
        } else {
            const char *const rawEnd = v.kind == Kind::Composite ? next : v.end;
            extras.emplace_back(
                key, std::string_view(v.begin, static_cast<std::size_t>(rawEnd - v.begin)));
        }
        return v.end;
    });
    return end && skipBlanks(end, e) == e;
}

} // namespace stepscope::import::chrometrace

// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Internal to the chunk parser: one event read without simdjson (issue 13, "one pass"). The
// events of real traces are plain JSON: ASCII, no escapes. For those, one walk over the
// event's bytes gives exactly the fields simdjson On-Demand gives (ChunkParser::Impl::
// readEvent): the same text for every field, the same flags, the same raw args. Anything
// else is left to simdjson: the walk then says no, and the caller parses the event as before.

#include "argscan.h"
#include "jsonfields.h"

#include <string_view>
#include <vector>

namespace stepscope::import::chrometrace {

/// Reads the event object `text` (from its `{` to its `}`) into `ev` and `extras`, as
/// readEvent does, and lists the members of its args object in `members` (ev.flatArgs: the
/// list holds every key of the args). False when `text` is not valid JSON made only of
/// printable ASCII with no backslash, nests deeper than 64 levels, or has an `id2` key: the
/// outputs are then unspecified and the event must be read by simdjson.
bool readPlainEvent(std::string_view text, fields::RawEvent &ev, fields::Extras &extras,
    std::vector<ArgMember> &members);

} // namespace stepscope::import::chrometrace

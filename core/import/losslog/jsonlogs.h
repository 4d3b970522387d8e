// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "logbuilder.h"

#include <string>
#include <string_view>

namespace stepscope::import::losslog {

/// Which whole-document JSON form a text is (docs/formats.md §10.8, §10.6), or None.
enum class JsonLogKind { None, HfTrainerState, MegatronGolden };

/// Parses `text` as one JSON document and fills `builder` when it is a Hugging Face
/// `trainer_state.json` or Megatron golden values. Returns None (builder untouched) for
/// anything else, including text that is not JSON. Never throws.
JsonLogKind readJsonDocument(std::string_view text, LogBuilder &builder);

/// True when `line` is a JSON object with `current_steps` and `total_steps` (LLaMA-Factory
/// trainer_log.jsonl, §10.9).
bool isTrainerLogLine(std::string_view line);
/// One line of trainer_log.jsonl; bad lines become issues. Never throws.
void readTrainerLogLine(std::string_view line, std::int64_t lineNo, LogBuilder &builder);

/// True when `header` is a metrics CSV header: starts with `epoch,step,` or has a `step`
/// column and a column whose name contains `loss` (§10.10).
bool isMetricsCsvHeader(std::string_view header);

/// Reads a metrics CSV (Lightning CSVLogger or plain) line by line.
class MetricsCsvReader
{
public:
    explicit MetricsCsvReader(std::string_view header);
    void feed(std::string_view line, std::int64_t lineNo, LogBuilder &builder);

private:
    std::vector<std::string> m_columns;
    std::size_t m_stepColumn = 0;
    RunTracker m_runs;
};

} // namespace stepscope::import::losslog

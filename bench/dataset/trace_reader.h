// Timestamped request traces in their public formats (docs/workload-schema.md, "Traces"), read
// one record at a time so a trace of any size costs only the records kept:
//   mooncake  JSONL: {"timestamp": ms, "input_length", "output_length", "hash_ids": [...]}, each
//             hash id one shared block of the prompt (Mooncake's FAST'25 traces);
//   azure     CSV with a header: TIMESTAMP (a date and time, "2023-11-16 18:15:46.6805900"),
//             ContextTokens, GeneratedTokens (the Azure LLM inference traces, 2023 and 2024);
//   burstgpt  CSV with a header: Timestamp (seconds), Model, Request tokens, Response tokens,
//             Total tokens, Log Type (BurstGPT); a row with no response tokens (a failed
//             request) is skipped and counted.
// Every record is checked (lengths >= 0 and bounded, timestamps not going back); a bad one is a
// DatasetError naming the file, the line and the field.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bench/workload/workload.h"

namespace infergate {

struct TraceRecord {
  double timestamp_s = 0;  // as the trace gives it (seconds; mooncake's milliseconds / 1000)
  int input_tokens = 0;
  int output_tokens = 0;
  std::vector<int64_t> hash_ids;  // mooncake only
  int line = 0;
};

struct TraceReadCounts {
  int64_t records = 0;  // read and checked
  int64_t skipped = 0;  // burstgpt rows without a response
};

// Calls `on_record` for each record in file order until it returns false or the file ends.
// Throws DatasetError for a file that cannot be read or a bad record, std::invalid_argument for
// an unknown format.
TraceReadCounts read_trace(const std::string& file, const std::string& format,
                           const std::function<bool(TraceRecord&&)>& on_record);

}  // namespace infergate

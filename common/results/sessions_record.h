// A repetition's "sessions" section (load.mode "sessions", docs/results-schema.md): the sessions
// held to their last turn and those cut short, and for each turn the measured requests, their
// TTFT from the turn's scheduled send, their mean prompt length and the share of their prompt
// tokens the prefix cache served.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/results/section_reader.h"

namespace infergate {

// One turn's TTFT over the requests that succeeded (0 when none did).
struct SessionTurnTtft {
  double p50 = 0, p95 = 0, mean = 0;
};

struct SessionTurnRecord {
  int64_t turn = 0;      // 1-based
  int64_t requests = 0;  // measured requests of this turn, failed ones included
  SessionTurnTtft ttft_ms;
  double input_tokens_mean = 0;
  double prefix_cache_hit_rate = 0;  // cached / input tokens (0 without input tokens)
};

struct SessionsRecord {
  int64_t completed = 0;                  // sessions held to their last turn
  int64_t cut = 0;                        // sessions ended early
  std::optional<std::string> cut_reason;  // the first cut's reason; absent when none was cut
  std::vector<SessionTurnRecord> turns;   // in turn order, turns without requests left out
};

// {"completed", "cut", "cut_reason"?, "turns": [{"turn", "requests", "ttft_ms": {"p50", "p95",
// "mean"}, "input_tokens_mean", "prefix_cache_hit_rate"}]}
nlohmann::json to_json(const SessionsRecord& s);
// `r` is the "sessions" object itself.
SessionsRecord read_sessions_record(const SectionReader& r);

}  // namespace infergate

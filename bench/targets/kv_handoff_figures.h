// The prefill/decode handoff figures of a repetition (docs/disaggregation.md, "What each answer
// and each run records"), from each request's handoff: what a router target reads off the
// answers' kv_transfer records, and what the simulated cluster computes.
#pragma once

#include <cstdint>
#include <vector>

#include "common/results/target_stats.h"

namespace infergate {

struct KvHandoffRecord {
  double read_ms = 0, prefill_ms = 0;
  int64_t bytes = 0;
  bool read_fallback = false;  // the read failed: the decode worker computed the prompt
  bool read = false;           // the decode worker read blocks
  double ttft_share = 0;       // the read's share of the request's TTFT; 0: unknown
};

// Reads, fallbacks, bytes, bandwidth, read and prefill time P50/P95 and the TTFT share P50; the
// caller adds the prefill workers and the router's own counts.
RouterRecord::Disaggregation kv_handoff_figures(const std::vector<KvHandoffRecord>& handoffs,
                                                double kv_read_rate_cap_mb_s);

}  // namespace infergate

// A disaggregated request's prefill phase and KV handoff, as the answer's last chunk tells it
// (`kv_transfer`: the router's prefill_* fields and the decode worker's read; docs/server.md,
// docs/disaggregation.md). Kept per request in the results, summed up per run by the router
// target.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace infergate {

struct KvTransferRecord {
  double prefill_ms = 0;  // the router's request to the prefill worker, to its answer
  int prefill_attempts = 0;
  std::string prefill_fallback;  // why no prefill worker exported the KV ("" when one did)
  int cached_blocks = 0;         // held by the decode worker already
  int blocks_read = 0;
  int64_t bytes = 0;           // KV read by the decode worker
  double read_ms = 0;          // that read
  double before_admit_ms = 0;  // decode worker: arrival to admission (the read included)
  std::string read_fallback;   // why the read failed and the decode worker computed the prompt
  // The prefill phase and the read on the monotonic clock (common/util/clock.h), which the
  // workers of a router target share with the harness (one machine): drawn in the trace.
  int64_t prefill_begin_ns = 0, prefill_end_ns = 0, read_begin_ns = 0, read_end_ns = 0;
};

// nullopt unless `j` is an object; fields of the wrong type are left at their defaults.
std::optional<KvTransferRecord> kv_transfer_from_json(const nlohmann::json& j);

}  // namespace infergate

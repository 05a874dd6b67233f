#include "bench/metrics/kv_transfer_record.h"

namespace infergate {

namespace {

template <typename T>
void read(const nlohmann::json& j, const char* key, T& out, double scale = 1) {
  const auto it = j.find(key);
  if (it == j.end()) return;
  if constexpr (std::is_same_v<T, std::string>) {
    if (it->is_string()) out = it->get<std::string>();
  } else if (std::is_integral_v<T> && scale == 1 && it->is_number_integer()) {
    out = it->get<T>();  // exact: nanosecond stamps pass 2^53 after 104 days of uptime
  } else if (it->is_number()) {
    out = T(it->get<double>() * scale);
  }
}

}  // namespace

std::optional<KvTransferRecord> kv_transfer_from_json(const nlohmann::json& j) {
  if (!j.is_object()) return std::nullopt;
  KvTransferRecord r;
  read(j, "prefill_s", r.prefill_ms, 1e3);
  read(j, "prefill_attempts", r.prefill_attempts);
  read(j, "prefill_fallback", r.prefill_fallback);
  read(j, "cached_blocks", r.cached_blocks);
  read(j, "blocks_read", r.blocks_read);
  read(j, "bytes", r.bytes);
  read(j, "read_s", r.read_ms, 1e3);
  read(j, "before_admit_s", r.before_admit_ms, 1e3);
  read(j, "fallback", r.read_fallback);
  read(j, "prefill_begin_ns", r.prefill_begin_ns);
  read(j, "prefill_end_ns", r.prefill_end_ns);
  read(j, "read_begin_ns", r.read_begin_ns);
  read(j, "read_end_ns", r.read_end_ns);
  return r;
}

}  // namespace infergate

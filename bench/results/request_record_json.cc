#include "bench/results/request_record_json.h"

namespace infergate {

nlohmann::json record_to_json(const RequestRecord& r, int64_t origin_ns) {
  auto ms = [&](int64_t t) -> nlohmann::json {
    return t == 0 ? nlohmann::json(nullptr) : nlohmann::json(double(t - origin_ns) * 1e-6);
  };
  nlohmann::json tokens = nlohmann::json::array();
  for (int64_t t : r.token_times_ns) tokens.push_back(double(t - origin_ns) * 1e-6);
  nlohmann::json j = {{"index", r.index},
                      {"warmup", r.warmup},
                      {"status", request_status_name(r.status)},
                      {"scheduled_ms", ms(r.scheduled_ns)},
                      {"sent_ms", ms(r.sent_ns)},
                      {"first_token_ms", ms(r.first_token_ns)},
                      {"finished_ms", ms(r.finished_ns)},
                      {"token_times_ms", std::move(tokens)},
                      {"input_tokens", r.input_tokens},
                      {"output_tokens", r.output_tokens},
                      {"cached_tokens", r.cached_tokens},
                      {"preemptions", r.preemptions}};
  if (!r.error.empty()) j["error"] = r.error;
  if (r.kv_transfer) j["kv_transfer"] = kv_transfer_to_json(*r.kv_transfer);
  if (r.session >= 0) {
    j["session"] = r.session;
    j["turn"] = r.turn;
  }
  return j;
}

}  // namespace infergate

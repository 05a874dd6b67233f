#include "common/results/recorded_request.h"

namespace infergate {

namespace {

nlohmann::json time_or_null(const std::optional<double>& t) {
  return t ? nlohmann::json(*t) : nlohmann::json(nullptr);
}

nlohmann::json text_or_null(const std::string& s) {
  return s.empty() ? nlohmann::json() : nlohmann::json(s);
}

nlohmann::json kv_transfer_json(const KvTransferRow& r) {
  return {{"prefill_ms", r.prefill_ms},
          {"prefill_attempts", r.prefill_attempts},
          {"prefill_fallback", text_or_null(r.prefill_fallback)},
          {"cached_blocks", r.cached_blocks},
          {"blocks_read", r.blocks_read},
          {"bytes", r.bytes},
          {"read_ms", r.read_ms},
          {"before_admit_ms", r.before_admit_ms},
          {"read_fallback", text_or_null(r.read_fallback)}};
}

nlohmann::json request_json(const RecordedRequest& r) {
  nlohmann::json j = {{"index", r.index},
                      {"warmup", r.warmup},
                      {"status", r.status},
                      {"scheduled_ms", time_or_null(r.scheduled_ms)},
                      {"sent_ms", time_or_null(r.sent_ms)},
                      {"first_token_ms", time_or_null(r.first_token_ms)},
                      {"finished_ms", time_or_null(r.finished_ms)},
                      {"token_times_ms", r.token_times_ms},
                      {"input_tokens", r.input_tokens},
                      {"output_tokens", r.output_tokens},
                      {"cached_tokens", r.cached_tokens},
                      {"preemptions", r.preemptions}};
  if (!r.error.empty()) j["error"] = r.error;
  if (r.kv_transfer) j["kv_transfer"] = kv_transfer_json(*r.kv_transfer);
  if (r.output_problem) j["output_problem"] = *r.output_problem;
  if (r.reasoning_tokens) j["reasoning_tokens"] = *r.reasoning_tokens;
  if (r.session >= 0) {
    j["session"] = r.session;
    j["turn"] = r.turn;
  }
  return j;
}

// Lenient by design: check_request_records has named every bad field the gates read; what is
// left is a hand-written file's missing or odd extras, which keep their defaults.
template <typename V>
V value_of(const nlohmann::json& j, const char* key, V fallback) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  if constexpr (std::is_same_v<V, std::string>) {
    return it->is_string() ? it->get<std::string>() : fallback;
  } else if constexpr (std::is_same_v<V, bool>) {
    return it->is_boolean() ? it->get<bool>() : fallback;
  } else {
    return it->is_number() ? it->get<V>() : fallback;
  }
}

std::optional<double> time_of(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

KvTransferRow kv_transfer_from(const nlohmann::json& j) {
  KvTransferRow r;
  r.prefill_ms = value_of(j, "prefill_ms", 0.0);
  r.prefill_attempts = value_of(j, "prefill_attempts", int64_t{0});
  r.prefill_fallback = value_of(j, "prefill_fallback", std::string());
  r.cached_blocks = value_of(j, "cached_blocks", int64_t{0});
  r.blocks_read = value_of(j, "blocks_read", int64_t{0});
  r.bytes = value_of(j, "bytes", int64_t{0});
  r.read_ms = value_of(j, "read_ms", 0.0);
  r.before_admit_ms = value_of(j, "before_admit_ms", 0.0);
  r.read_fallback = value_of(j, "read_fallback", std::string());
  return r;
}

RecordedRequest request_from(const nlohmann::json& j) {
  RecordedRequest r;
  r.index = value_of(j, "index", int64_t{0});
  r.warmup = value_of(j, "warmup", false);
  r.status = value_of(j, "status", std::string("ok"));
  r.error = value_of(j, "error", std::string());
  r.scheduled_ms = time_of(j, "scheduled_ms");
  r.sent_ms = time_of(j, "sent_ms");
  r.first_token_ms = time_of(j, "first_token_ms");
  r.finished_ms = time_of(j, "finished_ms");
  if (const auto t = j.find("token_times_ms"); t != j.end() && t->is_array()) {
    r.token_times_ms = t->get<std::vector<double>>();
  }
  r.input_tokens = value_of(j, "input_tokens", int64_t{0});
  r.output_tokens = value_of(j, "output_tokens", int64_t{0});
  r.cached_tokens = value_of(j, "cached_tokens", int64_t{0});
  r.preemptions = value_of(j, "preemptions", int64_t{0});
  if (const auto k = j.find("kv_transfer"); k != j.end() && k->is_object()) {
    r.kv_transfer = kv_transfer_from(*k);
  }
  if (const auto t = j.find("reasoning_tokens"); t != j.end() && t->is_number_integer()) {
    r.reasoning_tokens = t->get<int64_t>();
  }
  if (const auto p = j.find("output_problem"); p != j.end() && p->is_string()) {
    r.output_problem = p->get<std::string>();
  }
  r.session = value_of(j, "session", int64_t{-1});
  r.turn = value_of(j, "turn", int64_t{0});
  return r;
}

}  // namespace

nlohmann::json requests_to_json(const std::vector<RecordedRequest>& requests) {
  nlohmann::json out = nlohmann::json::array();
  for (const RecordedRequest& r : requests) out.push_back(request_json(r));
  return out;
}

std::vector<RecordedRequest> requests_from_json(const nlohmann::json& requests) {
  std::vector<RecordedRequest> out;
  out.reserve(requests.size());
  for (const nlohmann::json& r : requests) out.push_back(request_from(r));
  return out;
}

}  // namespace infergate

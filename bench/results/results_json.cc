#include "bench/results/results_json.h"

namespace infergate {

namespace {

nlohmann::json number_or_null(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

}  // namespace

nlohmann::json stat_to_json(const StatSummary& s) {
  return {{"count", s.count}, {"mean", s.mean}, {"min", s.min}, {"p50", s.p50},
          {"p90", s.p90},     {"p95", s.p95},   {"p99", s.p99}, {"max", s.max}};
}

nlohmann::json summary_to_json(const RunSummary& s) {
  return {{"num_requests", s.num_requests},
          {"num_completed", s.num_completed},
          {"num_errors", s.num_errors},
          {"num_aborted", s.num_aborted},
          {"error_share", s.error_share},
          {"duration_s", s.duration_s},
          {"request_throughput_rps", s.request_throughput_rps},
          {"output_throughput_tps", s.output_throughput_tps},
          {"total_throughput_tps", s.total_throughput_tps},
          {"goodput_rps", s.goodput_rps},
          {"good_fraction", s.good_fraction},
          {"ttft_ms", stat_to_json(s.ttft_ms)},
          {"tpot_ms", stat_to_json(s.tpot_ms)},
          {"itl_ms", stat_to_json(s.itl_ms)},
          {"e2e_ms", stat_to_json(s.e2e_ms)},
          {"send_lag_ms", stat_to_json(s.send_lag_ms)},
          {"input_tokens", stat_to_json(s.input_tokens)},
          {"output_tokens", stat_to_json(s.output_tokens)},
          {"peak_concurrency", s.peak_concurrency},
          {"mean_concurrency", s.mean_concurrency},
          {"peak_memory_bytes", s.peak_memory_bytes},
          {"peak_gpu_memory_bytes", number_or_null(s.peak_gpu_memory_bytes)},
          {"utilization_pct", s.utilization_pct},
          {"cpu_utilization_pct", s.cpu_utilization_pct},
          {"prefix_cache_hit_rate", s.prefix_cache_hit_rate},
          {"preemptions", s.preemptions},
          {"harness_limited", s.harness_limited},
          {"error_share_exceeded", s.error_share_exceeded}};
}

nlohmann::json error_classes_to_json(const std::vector<ErrorClass>& classes) {
  nlohmann::json out = nlohmann::json::array();
  for (const ErrorClass& c : classes) {
    out.push_back({{"class", c.name}, {"count", c.count}, {"first_message", c.first_message}});
  }
  return out;
}

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
  return j;
}

}  // namespace infergate

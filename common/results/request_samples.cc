#include "common/results/request_samples.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace infergate {

namespace {

double or_nan(const std::optional<double>& t) { return t ? *t : NAN; }

void add_samples(const RecordedRequest& r, std::string_view metric, std::vector<double>& out) {
  const double scheduled = or_nan(r.scheduled_ms);
  const double ttft = or_nan(r.first_token_ms) - scheduled;
  const double e2e = or_nan(r.finished_ms) - scheduled;
  if (metric == "ttft_ms" && !std::isnan(ttft)) out.push_back(ttft);
  if (metric == "e2e_ms" && !std::isnan(e2e)) out.push_back(e2e);
  if (metric == "tpot_ms" && r.output_tokens >= 2 && !std::isnan(ttft) && !std::isnan(e2e)) {
    out.push_back((e2e - ttft) / double(r.output_tokens - 1));
  }
  if (metric == "itl_ms") {
    const std::vector<double>& t = r.token_times_ms;
    for (size_t i = 1; i < t.size(); ++i) out.push_back(t[i] - t[i - 1]);
  }
}

constexpr double kMaxTimeMs = 1e10;  // 115 days from the run's start
constexpr int64_t kMaxTokens = 1'000'000'000;

[[noreturn]] void bad(size_t i, const std::string& field, const std::string& what) {
  throw std::invalid_argument("[" + std::to_string(i) + "]." + field + ": " + what);
}

// Whole numbers without a fraction ("40", not "40.0"), others as JSON writes them.
std::string number_text(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15) {
    return std::to_string(static_cast<int64_t>(v));
  }
  return nlohmann::json(v).dump();
}

// A time in ms since the run's start, or NaN when null or absent.
double time_of(const nlohmann::json& r, size_t i, const char* field) {
  const auto it = r.find(field);
  if (it == r.end() || it->is_null()) return NAN;
  if (!it->is_number()) bad(i, field, std::string("expected a number, got ") + it->type_name());
  const double v = it->get<double>();
  if (!std::isfinite(v) || v < 0 || v > kMaxTimeMs) {
    bad(i, field, number_text(v) + " is out of range (allowed: 0 .. 1e10 ms)");
  }
  return v;
}

void check_order(size_t i, double earlier, const char* earlier_name, double later,
                 const char* later_name) {
  if (!std::isnan(earlier) && !std::isnan(later) && later < earlier) {
    bad(i, later_name,
        number_text(later) + " is before " + earlier_name + " (" + number_text(earlier) + ")");
  }
}

void check_token_times(const nlohmann::json& r, size_t i) {
  const auto it = r.find("token_times_ms");
  if (it == r.end()) return;
  if (!it->is_array()) bad(i, "token_times_ms", "expected an array of times");
  double previous = 0;
  for (size_t k = 0; k < it->size(); ++k) {
    const nlohmann::json& t = (*it)[k];
    const std::string field = "token_times_ms[" + std::to_string(k) + "]";
    if (!t.is_number()) bad(i, field, std::string("expected a number, got ") + t.type_name());
    const double v = t.get<double>();
    if (!std::isfinite(v) || v < 0 || v > kMaxTimeMs) {
      bad(i, field, number_text(v) + " is out of range (allowed: 0 .. 1e10 ms)");
    }
    if (v < previous) bad(i, field, number_text(v) + " is before the token before it");
    previous = v;
  }
  const auto out = r.find("output_tokens");
  if (out != r.end() && out->is_number_integer() && !it->empty() &&
      out->get<int64_t>() != int64_t(it->size())) {
    bad(i, "output_tokens",
        std::to_string(out->get<int64_t>()) + " disagrees with the " + std::to_string(it->size()) +
            " token times recorded");
  }
}

void check_record(const nlohmann::json& r, size_t i) {
  if (!r.is_object())
    throw std::invalid_argument("[" + std::to_string(i) + "]: expected an object");
  const auto status = r.find("status");
  if (status == r.end() || !status->is_string() ||
      (*status != "ok" && *status != "error" && *status != "aborted")) {
    bad(i, "status", "expected one of ok, error, aborted");
  }
  const auto warmup = r.find("warmup");
  if (warmup != r.end() && !warmup->is_boolean()) bad(i, "warmup", "expected a boolean");
  const auto out = r.find("output_tokens");
  if (out != r.end() &&
      (!out->is_number_integer() || out->get<int64_t>() < 0 || out->get<int64_t>() > kMaxTokens)) {
    bad(i, "output_tokens", "expected a count in 0 .. 1e9");
  }
  const auto thinking = r.find("reasoning_tokens");
  if (thinking != r.end() && (!thinking->is_number_integer() || thinking->get<int64_t>() < 0 ||
                              (out != r.end() && thinking->get<int64_t>() > out->get<int64_t>()))) {
    bad(i, "reasoning_tokens", "expected a count in 0 .. output_tokens");
  }
  const double scheduled = time_of(r, i, "scheduled_ms");
  const double first = time_of(r, i, "first_token_ms");
  const double finished = time_of(r, i, "finished_ms");
  check_order(i, scheduled, "scheduled_ms", first, "first_token_ms");
  check_order(i, scheduled, "scheduled_ms", finished, "finished_ms");
  check_order(i, first, "first_token_ms", finished, "finished_ms");
  check_token_times(r, i);
}

}  // namespace

void check_request_records(const nlohmann::json& requests) {
  if (!requests.is_array()) throw std::invalid_argument(": expected an array of records");
  for (size_t i = 0; i < requests.size(); ++i) check_record(requests[i], i);
}

std::vector<double> request_samples(const std::vector<RecordedRequest>& requests,
                                    std::string_view metric) {
  std::vector<double> out;
  for (const RecordedRequest& r : requests) {
    if (r.measured_ok()) add_samples(r, metric, out);
  }
  return out;
}

double linear_percentile(const std::vector<double>& sorted, double p) {
  const double rank = double(sorted.size() - 1) * p / 100.0;
  const size_t lo = size_t(std::floor(rank));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - double(lo));
}

std::optional<double> sample_statistic(std::vector<double> samples, std::string_view stat) {
  if (samples.empty()) return std::nullopt;
  std::sort(samples.begin(), samples.end());
  if (stat == "mean")
    return std::accumulate(samples.begin(), samples.end(), 0.0) / double(samples.size());
  if (stat == "min") return samples.front();
  if (stat == "max") return samples.back();
  if (stat.size() >= 2 && stat[0] == 'p') {
    const std::string digits(stat.substr(1));
    if (digits == "50" || digits == "90" || digits == "95" || digits == "99") {
      return linear_percentile(samples, std::stod(digits));
    }
  }
  return std::nullopt;
}

}  // namespace infergate

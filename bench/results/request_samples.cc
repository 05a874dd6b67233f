#include "bench/results/request_samples.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

namespace infergate {

namespace {

double number_or_nan(const nlohmann::json& record, const char* key) {
  const auto it = record.find(key);
  return it != record.end() && it->is_number() ? it->get<double>() : NAN;
}

void add_samples(const nlohmann::json& r, std::string_view metric, std::vector<double>& out) {
  const double scheduled = number_or_nan(r, "scheduled_ms");
  const double ttft = number_or_nan(r, "first_token_ms") - scheduled;
  const double e2e = number_or_nan(r, "finished_ms") - scheduled;
  const int64_t output_tokens = r.value("output_tokens", int64_t{0});
  if (metric == "ttft_ms" && !std::isnan(ttft)) out.push_back(ttft);
  if (metric == "e2e_ms" && !std::isnan(e2e)) out.push_back(e2e);
  if (metric == "tpot_ms" && output_tokens >= 2 && !std::isnan(ttft) && !std::isnan(e2e)) {
    out.push_back((e2e - ttft) / double(output_tokens - 1));
  }
  if (metric == "itl_ms" && r.contains("token_times_ms")) {
    const nlohmann::json& t = r["token_times_ms"];
    for (size_t i = 1; i < t.size(); ++i)
      out.push_back(t[i].get<double>() - t[i - 1].get<double>());
  }
}

}  // namespace

std::vector<double> request_samples(const nlohmann::json& requests, std::string_view metric) {
  std::vector<double> out;
  if (!requests.is_array()) return out;
  for (const nlohmann::json& r : requests) {
    if (r.value("warmup", false) || r.value("status", std::string()) != "ok") continue;
    add_samples(r, metric, out);
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

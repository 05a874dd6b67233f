#include "common/imports/imported_stats.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include "common/results/request_samples.h"

namespace infergate {

namespace {

using Field = std::optional<double> ImportedStats::*;
// Our keys in the results file's order, after "count".
constexpr std::pair<const char*, Field> kFields[] = {
    {"mean", &ImportedStats::mean}, {"min", &ImportedStats::min}, {"p50", &ImportedStats::p50},
    {"p90", &ImportedStats::p90},   {"p95", &ImportedStats::p95}, {"p99", &ImportedStats::p99},
    {"max", &ImportedStats::max}};

std::string names(const ImportedStats& s, bool present) {
  std::string out;
  const auto add = [&](const char* name) { out += (out.empty() ? "" : ", ") + std::string(name); };
  if (s.count.has_value() == present) add("count");
  for (const auto& [name, field] : kFields) {
    if ((s.*field).has_value() == present) add(name);
  }
  return out;
}

}  // namespace

ImportedStats ImportedStats::scaled(double factor) const {
  ImportedStats out = *this;
  for (const auto& [name, field] : kFields) {
    if (out.*field) *(out.*field) *= factor;
  }
  return out;
}

ImportedStats stats_of_samples(std::vector<double> samples) {
  ImportedStats s;
  s.count = int64_t(samples.size());
  if (samples.empty()) {
    for (const auto& [name, field] : kFields) s.*field = 0.0;
    return s;
  }
  std::sort(samples.begin(), samples.end());
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / double(samples.size());
  s.min = samples.front();
  s.max = samples.back();
  s.p50 = linear_percentile(samples, 50);
  s.p90 = linear_percentile(samples, 90);
  s.p95 = linear_percentile(samples, 95);
  s.p99 = linear_percentile(samples, 99);
  return s;
}

nlohmann::json stats_to_json(const ImportedStats& s) {
  nlohmann::json out = nlohmann::json::object();
  if (s.count) out["count"] = *s.count;
  for (const auto& [name, field] : kFields) {
    if (s.*field) out[name] = *(s.*field);
  }
  return out;
}

std::string present_stats(const ImportedStats& s) { return names(s, true); }
std::string missing_stats(const ImportedStats& s) { return names(s, false); }

}  // namespace infergate

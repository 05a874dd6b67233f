#include "bench/metrics/capacity_estimate.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "bench/metrics/probe_figures.h"

namespace infergate {

namespace {

constexpr double kMaxExtrapolation = 1.5;

// Where log(ratio) reaches 0 on the line through (log a.load, log a.ratio) and (log b.load, log
// b.ratio), as a load; nullopt when the line is flat or a ratio is missing.
std::optional<double> crossing(const LoadVerdict& a, const LoadVerdict& b) {
  if (!a.slo_ratio || !b.slo_ratio || *a.slo_ratio <= 0 || *b.slo_ratio <= 0) return std::nullopt;
  const double qa = std::log(*a.slo_ratio), qb = std::log(*b.slo_ratio);
  if (!(qb > qa)) return std::nullopt;  // the ratio must rise with the load
  const double t = -qa / (qb - qa);
  return std::exp(std::log(a.load) + t * (std::log(b.load) - std::log(a.load)));
}

}  // namespace

std::vector<LoadVerdict> pooled_by_load(const std::vector<SearchProbeRecord>& probes,
                                        const std::vector<std::vector<double>>& ratios,
                                        double goodput_share) {
  struct Sums {
    int probes = 0;
    int64_t requests = 0;
    double good = 0, ttft_p99 = 0;
    std::vector<double> ratios;
  };
  std::map<double, Sums> by_load;
  for (size_t i = 0; i < probes.size(); ++i) {
    const SearchProbeRecord& p = probes[i];
    Sums& s = by_load[p.load];
    ++s.probes;
    s.requests += p.summary.num_requests;
    s.good += p.summary.good_fraction * double(p.summary.num_requests);
    s.ttft_p99 += p.summary.ttft_ms.p99;
    if (i < ratios.size()) s.ratios.insert(s.ratios.end(), ratios[i].begin(), ratios[i].end());
  }
  std::vector<LoadVerdict> out;
  for (const auto& [load, s] : by_load) {
    LoadVerdict v;
    v.load = load;
    v.probes = s.probes;
    v.requests = s.requests;
    v.good_fraction = s.requests > 0 ? s.good / double(s.requests) : 0;
    // The epsilon keeps 190 good of 200 at exactly 0.95 through the pooling's arithmetic.
    v.meets = s.requests > 0 && v.good_fraction >= goodput_share - 1e-12;
    v.slo_ratio = slo_ratio_at_share(s.ratios, goodput_share);
    v.ttft_p99_ms = s.ttft_p99 / s.probes;
    out.push_back(v);
  }
  return out;
}

LoadBracket bracket_of(const std::vector<LoadVerdict>& loads) {
  LoadBracket b;
  for (const LoadVerdict& v : loads) {
    if (!v.meets && !b.high) b.high = v.load;
    if (v.meets && !b.high) b.low = v.load;
    if (v.meets && b.high) b.monotonic = false;
  }
  return b;
}

double capacity_between(const LoadVerdict& low, const LoadVerdict& high, bool users) {
  if (users) return low.load;
  const std::optional<double> c = crossing(low, high);
  return c ? std::clamp(*c, low.load, high.load) : low.load;
}

std::optional<double> capacity_from_fixed_loads(const std::vector<LoadVerdict>& loads, bool users) {
  if (loads.size() < 2) return std::nullopt;
  for (size_t i = 0; i + 1 < loads.size(); ++i) {
    if (loads[i].meets && !loads[i + 1].meets)
      return capacity_between(loads[i], loads[i + 1], users);
  }
  if (users) return std::nullopt;  // whole users cannot be placed outside the loads probed
  const bool all_met = loads.back().meets;
  const LoadVerdict& a = all_met ? loads[loads.size() - 2] : loads[0];
  const LoadVerdict& b = all_met ? loads.back() : loads[1];
  const std::optional<double> c = crossing(a, b);
  if (!c) return std::nullopt;
  const double lowest = loads.front().load / kMaxExtrapolation;
  const double highest = loads.back().load * kMaxExtrapolation;
  if (all_met && *c >= loads.back().load && *c <= highest) return *c;
  if (!all_met && *c <= loads.front().load && *c >= lowest) return *c;
  return std::nullopt;
}

std::vector<SearchCliffRecord> find_cliffs(const std::vector<LoadVerdict>& loads, double factor) {
  std::vector<SearchCliffRecord> cliffs;
  for (size_t i = 0; i + 1 < loads.size(); ++i) {
    const LoadVerdict &a = loads[i], &b = loads[i + 1];
    if (!(a.ttft_p99_ms > 0) || b.ttft_p99_ms < factor * a.ttft_p99_ms * (b.load / a.load)) {
      continue;
    }
    cliffs.push_back({a.load, b.load, a.ttft_p99_ms, b.ttft_p99_ms, b.ttft_p99_ms / a.ttft_p99_ms});
  }
  return cliffs;
}

}  // namespace infergate

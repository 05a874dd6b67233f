#include "bench/workload/capacity_search_reader.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "bench/workload/workload_error.h"
#include "bench/workload/workload_limits.h"

namespace infergate {

namespace {

constexpr size_t kMaxFixedLoads = 16;
constexpr int kMinProbes = 3, kMaxProbes = 100;
constexpr double kMinShare = 0.5, kMaxShare = 0.9999;

std::string number_text(double x) {
  if (x == std::floor(x) && std::fabs(x) < 1e15) return std::to_string(int64_t(x));
  std::ostringstream out;
  out << x;
  return out.str();
}

// What one load of the search may be: requests/s (open) or whole users (closed).
struct LoadRule {
  bool users = false;
  double max() const { return users ? double(kMaxConcurrency) : kMaxRate; }
  bool admits(double v) const {
    return (users ? v >= 1 && v == std::floor(v) : v > 0) && v <= max();
  }
  std::string range() const {
    return std::string(users ? "an integer >= 1" : "> 0") + " and <= " + number_text(max()) +
           (users ? " (users, load.concurrency)" : " (requests/s, load.rate)");
  }
};

double read_bound(JsonObjectReader& r, const char* key, const LoadRule& rule) {
  const double v = rule.users ? r.get_int(key, 0) : r.get_double(key, 0);
  r.check(r.has(key), key, "the search's range needs from and to (or the loads in `at`)");
  r.check(rule.admits(v), key, "must be " + rule.range());
  return v;
}

// `at`: the loads probed, each once, ascending.
std::vector<double> read_fixed_loads(JsonObjectReader& r, const LoadRule& rule) {
  const nlohmann::json* v = r.find("at");
  const std::string expected = "an array of 2 to " + std::to_string(kMaxFixedLoads) +
                               " distinct loads (the capacity is placed between two), each " +
                               rule.range();
  if (!v->is_array() || v->size() < 2 || v->size() > kMaxFixedLoads) {
    throw WorkloadError::wrong_type(r.file(), r.path_of("at"), json_text(*v), expected);
  }
  std::vector<double> loads;
  for (size_t i = 0; i < v->size(); ++i) {
    const std::string path = r.path_of("at") + "[" + std::to_string(i) + "]";
    const nlohmann::json& e = (*v)[i];
    if (!e.is_number() || !rule.admits(e.get<double>())) {
      throw WorkloadError::out_of_range(r.file(), path, json_text(e), "must be " + rule.range());
    }
    if (std::find(loads.begin(), loads.end(), e.get<double>()) != loads.end()) {
      throw WorkloadError(r.file(), path, json_text(e), "distinct loads",
                          json_text(e) + " is given twice (each load is probed once)");
    }
    loads.push_back(e.get<double>());
  }
  std::sort(loads.begin(), loads.end());
  return loads;
}

void check_sizes(const JsonObjectReader& r, const CapacitySearchSpec& s, const LoadSpec& l) {
  const int fewest = CapacitySearchSpec::min_requests(s.goodput_share);
  r.check(s.requests_per_probe >= fewest && s.requests_per_probe <= kMaxRequests,
          "requests_per_probe",
          "must be in [" + std::to_string(fewest) + ", " + number_text(double(kMaxRequests)) +
              "]: at goodput_share " + number_text(s.goodput_share) +
              " a probe needs at least one request past the share's rank");
  const int64_t probes = s.fixed() ? int64_t(s.at.size()) : s.max_probes;
  const int64_t planned = probes * (int64_t(s.requests_per_probe) + l.warmup_requests);
  r.check(planned <= kMaxRequests, "requests_per_probe",
          "the search's requests ((max_probes or the loads in at) x (requests_per_probe + "
          "warmup_requests) = " +
              std::to_string(planned) + ") must be <= " + number_text(double(kMaxRequests)));
  if (l.mode != LoadMode::kOpen) return;
  // The slowest probe's schedule is bounded as an open loop's is.
  const double lowest = s.fixed() ? s.at.front() : s.from;
  r.check(double(s.requests_per_probe) / lowest <= kMaxDurationS, "requests_per_probe",
          "a probe at " + number_text(lowest) + " req/s would send for more than " +
              number_text(kMaxDurationS) + " s");
}

CapacitySearchSpec read_search(JsonObjectReader& load, const LoadSpec& l) {
  JsonObjectReader r = load.child("search");
  const LoadRule rule{l.mode == LoadMode::kClosed};
  CapacitySearchSpec s;
  s.goodput_share = r.get_double("goodput_share", s.goodput_share);
  s.requests_per_probe = r.get_int("requests_per_probe", 0);
  s.cliff_factor = r.get_double("cliff_factor", s.cliff_factor);
  const bool fixed = r.has("at");
  if (fixed) {
    s.at = read_fixed_loads(r, rule);
    r.set_context("with load.search.at (the loads are given: nothing is bisected)",
                  {"from", "to", "precision", "max_probes"});
  } else {
    s.from = read_bound(r, "from", rule);
    s.to = read_bound(r, "to", rule);
    s.precision = r.get_double("precision", s.precision);
    s.max_probes = r.get_int("max_probes", s.max_probes);
  }
  r.finish();
  r.check(s.goodput_share >= kMinShare && s.goodput_share <= kMaxShare, "goodput_share",
          "must be in [" + number_text(kMinShare) + ", " + number_text(kMaxShare) +
              "] (the share of requests that must meet the SLO)");
  if (s.requests_per_probe == 0) {
    s.requests_per_probe = CapacitySearchSpec::default_requests(s.goodput_share);
  }
  r.check(s.cliff_factor > 1 && s.cliff_factor <= 1000, "cliff_factor", "must be > 1 and <= 1000");
  if (!fixed) {
    r.check(s.to > s.from, "to", "must be above from: the search bisects [from, to]");
    r.check(s.precision >= 0.001 && s.precision <= 1, "precision",
            "must be in [0.001, 1] (the bracket's relative width, high / low - 1)");
    r.check(s.max_probes >= kMinProbes && s.max_probes <= kMaxProbes, "max_probes",
            "must be in [" + std::to_string(kMinProbes) + ", " + std::to_string(kMaxProbes) + "]");
  }
  check_sizes(r, s, l);
  return s;
}

}  // namespace

LoadSpec read_search_load(JsonObjectReader& r, LoadSpec l) {
  l.warmup_requests = r.get_int("warmup_requests", l.warmup_requests);
  r.check(l.warmup_requests >= 0 && l.warmup_requests <= kMaxRequests, "warmup_requests",
          "must be in [0, " + number_text(double(kMaxRequests)) + "] (sent first by each probe)");
  if (l.mode == LoadMode::kOpen) {
    l.arrival = r.get_choice("arrival", l.arrival, {"constant", "poisson", "gamma"});
    if (l.arrival == "gamma") l.burstiness = r.get_double("burstiness", l.burstiness);
    l.max_concurrency = r.get_int("max_concurrency", l.max_concurrency);
  }
  l.search = read_search(r, l);
  r.set_context("with load.search (its probes give the " +
                    std::string(l.mode == LoadMode::kOpen ? "rate" : "users") + " and the count)",
                {"num_requests", "duration_s", "rate", "concurrency", "ramp", "stop_when",
                 "arrival", "burstiness", "max_concurrency"});
  r.finish();
  r.check(l.burstiness >= kMinBurstiness && l.burstiness <= kMaxBurstiness, "burstiness",
          "must be in [" + number_text(kMinBurstiness) + ", " + number_text(kMaxBurstiness) + "]");
  r.check(l.max_concurrency >= 0 && l.max_concurrency <= kMaxConcurrency, "max_concurrency",
          "must be in [0, " + number_text(double(kMaxConcurrency)) + "] (0: no cap)");
  l.num_requests = l.search->requests_per_probe;
  const CapacitySearchSpec& s = *l.search;
  if (l.mode == LoadMode::kOpen) l.rate = s.fixed() ? s.at.front() : s.from;
  if (l.mode == LoadMode::kClosed) l.concurrency = int(s.fixed() ? s.at.front() : s.from);
  return l;
}

void check_search_has_slo(const JsonObjectReader& top, const LoadSpec& load, const SloSpec& slo) {
  if (!load.search || slo.ttft_ms || slo.tpot_ms || slo.e2e_ms) return;
  throw WorkloadError(top.file(), top.path_of("load") + ".search", "", "",
                      "needs an slo with at least one bound (slo.ttft_ms, slo.tpot_ms, "
                      "slo.e2e_ms): the capacity is the highest load at which the SLO holds");
}

nlohmann::json search_to_json(const CapacitySearchSpec& s, LoadMode mode) {
  const auto load = [mode](double v) {
    return mode == LoadMode::kClosed ? nlohmann::json(int64_t(v)) : nlohmann::json(v);
  };
  nlohmann::json j = {{"goodput_share", s.goodput_share},
                      {"requests_per_probe", s.requests_per_probe},
                      {"cliff_factor", s.cliff_factor}};
  if (s.fixed()) {
    nlohmann::json at = nlohmann::json::array();
    for (double v : s.at) at.push_back(load(v));
    j["at"] = std::move(at);
    return j;
  }
  j["from"] = load(s.from);
  j["to"] = load(s.to);
  j["precision"] = s.precision;
  j["max_probes"] = s.max_probes;
  return j;
}

}  // namespace infergate

// A repetition's "search" section (load.search, docs/metrics.md "Capacity at the SLO"): every
// probe the capacity search ran, in the order it ran them, with the verdict, the capacity and
// its bracket, and the cliffs between adjacent loads. The repetition's summary is the summary
// of the probe at the bracket's lower end, with capacity_at_slo added.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/results/run_summary.h"
#include "common/results/section_reader.h"

namespace infergate {

// How a search ended.
//   found:         a bracket [passing, failing] at the precision asked for
//   max_probes:    a bracket, wider than asked: load.search.max_probes ran out
//   below_range:   the SLO failed at the lowest load searched: capacity 0 there
//   not_bracketed: the SLO held at the highest load searched: capacity is above it (no figure)
//   probe_failed:  a probe whose requests all failed: the target is broken, not loaded
//   fixed:         load.search.at: the loads were given, the capacity interpolated between them
//   incomplete:    stopped early (Ctrl-C)
inline constexpr const char* kSearchStatuses[] = {
    "found", "max_probes", "below_range", "not_bracketed", "probe_failed", "fixed", "incomplete"};

struct SearchProbeRecord {
  int64_t index = 0;  // the order it ran in, from 0
  double load = 0;    // requests/s (load.rate) or users (load.concurrency)
  std::string role;   // "from" | "to" | "bisect" | "reprobe" | "fixed"
  uint64_t seed = 0;  // its arrivals' seed (a re-probe draws other arrivals than the first)
  // The SLO ratio at the goodput share: each measured request's worst latency over its bound
  // (max over the SLO's ttft/tpot/e2e of value / bound; a failed request counts as infinite),
  // at the rank ceil(share x requests) of them. The probe meets the SLO exactly when it is
  // <= 1; null when more than 1 - share of the requests failed.
  std::optional<double> slo_ratio;
  bool meets = false;  // its pooled verdict when it ran: share of good requests >= target
  double seconds = 0;  // wall time of the probe, target start to last answer
  RunSummary summary;  // its measured requests, as a whole run's
};

// TTFT P99 jumping by cliff_factor or more between two adjacent probed loads.
struct SearchCliffRecord {
  double from_load = 0, to_load = 0;
  double from_ttft_p99_ms = 0, to_ttft_p99_ms = 0;
  double factor = 0;
};

struct SearchRecord {
  std::string field;  // "load.rate" or "load.concurrency"
  std::string unit;   // "req/s" or "users"
  double goodput_share = 0;
  int64_t requests_per_probe = 0;
  double precision = 0;                   // asked: relative bracket width high / low - 1
  std::string status;                     // one of kSearchStatuses
  std::optional<double> capacity;         // null: not_bracketed, probe_failed, incomplete
  std::optional<double> low, high;        // the bracket: highest passing, lowest failing
  std::optional<int64_t> summary_probe;   // the probe the repetition's summary is of
  std::string verdict;                    // one line, as the console says it
  std::vector<SearchProbeRecord> probes;  // in the order they ran
  std::vector<SearchCliffRecord> cliffs;  // by load
  double seconds = 0;                     // the whole search
};

// {"field", "unit", "goodput_share", "requests_per_probe", "precision", "status", "capacity",
// "low", "high" (null when absent), "summary_probe", "verdict", "seconds", "probes": [{"index",
// "load", "role", "seed", "slo_ratio", "meets", "seconds", "summary"}], "cliffs": [{"from_load",
// "to_load", "from_ttft_p99_ms", "to_ttft_p99_ms", "factor"}]}.
nlohmann::json to_json(const SearchRecord& r);
// `r` is the "search" object itself; a status outside kSearchStatuses, a probe's role outside
// its list or a bracket with low > high is an error naming the field.
SearchRecord read_search_record(const SectionReader& r);

}  // namespace infergate

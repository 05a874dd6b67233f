// The throughput frontier of a load sweep (docs/results-schema.md, "frontier"): each load's
// output tokens/s per user (1 / TPOT p50) against output tokens/s per device, and which loads
// no other load beats on both. Moving along the frontier trades one user's speed for the
// deployment's throughput; a point below it is a load that buys neither. Each point is marked
// by whether it met the SLO for the workload's goodput share.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/results/results_file.h"

namespace infergate {

// The goodput share a point must reach when the workload does not say (load.search).
inline constexpr double kDefaultGoodputShare = 0.99;

struct FrontierPoint {
  std::string label;               // "load.rate=4", or "probe 3: load.rate=60" for a search's probe
  double load = 0;                 // req/s (load.rate) or users (load.concurrency)
  double tokens_per_user_s = 0;    // 1000 / tpot_ms.p50
  double tokens_per_device_s = 0;  // output_throughput_tps / devices
  double good_fraction = 0;
  std::optional<bool> meets_slo;  // good_fraction >= share; absent when the workload has no SLO
  bool on_frontier = false;       // no other point is at least as good on both axes and better
                                  // on one
};

struct Frontier {
  int devices = 1;
  std::string devices_note;     // how `devices` was counted, or why it is not known
  std::optional<double> share;  // the goodput share points are marked at; absent without an SLO
  std::string source;           // "sweep" (the points) or "search" (the first search's probes)
  std::vector<FrontierPoint> points;  // in load order
};

// The frontier of a load.rate / load.concurrency sweep, or of a single point's capacity search
// (its first repetition's probes); nullopt for any other file or fewer than 2 points with a
// TPOT p50 above 0.
std::optional<Frontier> frontier_of(const ResultsFile& results);

// The frontier's points sorted by tokens per user (then per device): the line to draw.
std::vector<const FrontierPoint*> frontier_line(const Frontier& frontier);

// {"devices", "devices_note", "goodput_share" (null without an SLO), "source", "points":
// [{"label", "load", "tokens_per_user_s", "tokens_per_device_s", "good_fraction", "meets_slo"
// (null without an SLO), "on_frontier"}]}.
nlohmann::json to_json(const Frontier& frontier);

}  // namespace infergate

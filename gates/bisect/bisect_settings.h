// Everything one bisect needs, fixed when it starts: the range, the metric and how it is judged,
// how commits are built and measured. Written to a state file for the `bisect-step` processes
// that `git bisect run` starts, so every step judges exactly as the ends were judged.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "gates/ab/ab_design.h"
#include "gates/bisect/commit_build_cache.h"
#include "gates/bisect/commit_measurement.h"
#include "gates/rules/gate_rule.h"

namespace infergate {

struct BisectSettings {
  std::string repo_dir;   // the work tree the bisect was started from (absolute)
  std::string cache_dir;  // this repository's cache folder (repo_cache_dir(), absolute)
  std::string good, bad;  // full commit hashes
  std::string metric;     // results-file key, e.g. "summary.tpot_ms.p95"
  Direction better = Direction::kLowerIsBetter;
  double threshold = 0.05;    // relative: 0.05 = 5%
  int max_repeat_rounds = 2;  // extra rounds of measure.repetitions while inconclusive
  uint64_t seed = 1;          // of the bootstrap
  BuildSpec build;
  MeasureSpec measure;  // measure.repetitions is --repeat
  // --paired: every comparison is an A/B session of the two commits' builds run alternately
  // (gates/ab/ab_session.h), written under pairs_dir; measure.repetitions is the pairs before
  // the first look, and max_repeat_rounds is unused (the session adds pairs itself).
  bool paired = false;
  AbDesign design;        // max_pairs and budget_seconds per comparison
  std::string pairs_dir;  // absolute: <out-dir>/pairs
};

nlohmann::json to_json(const BisectSettings& s);
// Throws std::runtime_error (nlohmann's errors) on a malformed document.
BisectSettings bisect_settings_from_json(const nlohmann::json& doc);

}  // namespace infergate

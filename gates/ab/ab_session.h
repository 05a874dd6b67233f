// `infergate ab`: two builds (or two configurations) of one workload run alternately on this
// machine, one fresh process per run, in ABBA order, and judged as pairs while they run
// (docs/gates.md, "Paired A/B"). Drift that both runs of a pair share cancels in their ratio.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "common/results/results_file.h"
#include "gates/ab/ab_design.h"
#include "gates/rules/rule_set.h"
#include "gates/verdict/comparison.h"

namespace infergate {

struct AbSide {
  std::string name;               // "baseline" or "candidate"
  std::string binary;             // an infergate executable
  std::vector<std::string> sets;  // --set overrides for this side only
};

struct AbSettings {
  std::string workload_path;
  std::vector<std::string> sets;  // --set overrides for both sides
  AbSide baseline{"baseline", "", {}}, candidate{"candidate", "", {}};
  AbDesign design;
  std::string out_dir;          // runs/, baseline.json, candidate.json (absolute)
  std::string working_dir;      // where the runs start (empty: ours)
  CompareOptions compare;       // paired is forced on
  bool allow_errors = false;    // judge sides whose requests failed beyond the rules' limit
  bool record_requests = true;  // runs keep per-request records (--requests)
  std::function<void(const std::string&)> progress;  // one line per pair and per look
};

struct AbOutcome {
  ResultsFile baseline, candidate;  // every pair so far, as written to out_dir
  Comparison comparison;            // at the last look (empty before the first)
  int pairs = 0;
  double seconds = 0;
  AbStop stop = AbStop::kContinue;
  // Error-share excesses of a side (then the session stopped: failed requests measure nothing).
  std::vector<std::string> failed_requests;
};

// Runs pairs until next_step() says stop. Each run is `BINARY run WORKLOAD --repeat 1 [--requests]
// --quiet --out FILE` with the common and the side's sets; exit 0 and 5 (no request succeeded:
// the error-share check then stops the session) are results, any other exit throws
// std::runtime_error naming the command and its log. Throws Interrupted on Ctrl-C, after the
// pairs so far are written.
AbOutcome run_ab(const AbSettings& settings, const RuleSet& rules);

}  // namespace infergate

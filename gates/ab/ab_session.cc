#include "gates/ab/ab_session.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>

#include "common/io/json_file.h"
#include "gates/ab/workload_process.h"
#include "gates/auto_repeat/auto_repeat.h"
#include "gates/verdict/comparability.h"
#include "gates/verdict/error_share_check.h"

namespace infergate {

namespace {

namespace fs = std::filesystem;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A run may take what is left of the budget and a quarter of the budget more (next_step() stops
// adding pairs that would end past it, so only a run far slower than the last ones needs the
// grace): a hung binary ends the session by then, named, instead of holding it for good.
double run_time_limit(const AbDesign& design, double seconds_so_far) {
  return std::max(design.budget_seconds - seconds_so_far, 0.0) +
         std::max(design.budget_seconds / 4, 1.0);
}

ResultsFile run_once(const AbSettings& s, const AbSide& side, int pair, double time_limit_s) {
  std::vector<std::string> sets = s.sets;
  sets.insert(sets.end(), side.sets.begin(), side.sets.end());
  const std::string stem =
      (fs::path(s.out_dir) / "runs" / (side.name + "-" + std::to_string(pair))).string();
  return run_workload_process(side.binary, s.workload_path, sets, stem, s.working_dir,
                              s.record_requests, time_limit_s)
      .results;
}

void add_run(ResultsFile& side, ResultsFile run, const std::string& path) {
  if (side.points.empty()) {
    side = std::move(run);
  } else {
    append_repetitions_from(side, run);
  }
  side.source = path;
}

void write_sides(AbOutcome& o, const std::string& dir) {
  write_json_atomically(results_to_json(o.baseline), (fs::path(dir) / "baseline.json").string());
  write_json_atomically(results_to_json(o.candidate), (fs::path(dir) / "candidate.json").string());
}

std::string pair_line(const AbOutcome& o, bool candidate_first, double pair_seconds) {
  char line[160];
  std::snprintf(line, sizeof line, "pair %d (%s) done in %.1f s, %.0f s so far", o.pairs,
                candidate_first ? "candidate first" : "baseline first", pair_seconds, o.seconds);
  return line;
}

}  // namespace

AbOutcome run_ab(const AbSettings& s, const RuleSet& rules) {
  fs::create_directories(fs::path(s.out_dir) / "runs");
  const std::string base_path = (fs::path(s.out_dir) / "baseline.json").string();
  const std::string cand_path = (fs::path(s.out_dir) / "candidate.json").string();
  CompareOptions options = s.compare;
  options.paired = true;
  const auto start = std::chrono::steady_clock::now();
  AbOutcome o;
  int look = 0;
  RegressionStreak streak;
  while (o.stop == AbStop::kContinue) {
    const auto pair_start = std::chrono::steady_clock::now();
    const bool cand_first = candidate_runs_first(o.pairs);
    const AbSide& first = cand_first ? s.candidate : s.baseline;
    const AbSide& second = cand_first ? s.baseline : s.candidate;
    ResultsFile a = run_once(s, first, o.pairs, run_time_limit(s.design, seconds_since(start)));
    ResultsFile b = run_once(s, second, o.pairs, run_time_limit(s.design, seconds_since(start)));
    add_run(o.baseline, cand_first ? std::move(b) : std::move(a), base_path);
    add_run(o.candidate, cand_first ? std::move(a) : std::move(b), cand_path);
    ++o.pairs;
    o.seconds = seconds_since(start);
    write_sides(o, s.out_dir);
    if (s.progress) s.progress(pair_line(o, cand_first, seconds_since(pair_start)));
    if (!s.allow_errors) {
      o.failed_requests = error_share_excesses(o.baseline, rules, "baseline");
      for (std::string& f : error_share_excesses(o.candidate, rules, "candidate")) {
        o.failed_requests.push_back(std::move(f));
      }
      if (!o.failed_requests.empty()) return o;
    }
    if (look == 0) {
      look = first_look(s.design, rules, o.candidate.workload_name);
      // Sides that cannot be compared need no more pairs to say so.
      if (!options.allow_env_diff && !fingerprint_differences(o.baseline, o.candidate).empty()) {
        o.comparison = compare_results(o.baseline, o.candidate, rules, options);
        o.stop = AbStop::kDecided;
        return o;
      }
    }
    if (!is_look(o.pairs, look) && o.pairs < s.design.max_pairs) continue;
    o.comparison = compare_results(o.baseline, o.candidate, rules, options);
    const int gate = o.comparison.exit_code();
    o.stop = next_step(s.design, o.pairs, gate, streak.after(gate), o.seconds, o.seconds / o.pairs);
    if (s.progress)
      s.progress("  look at " + std::to_string(o.pairs) + " pairs: " + o.comparison.headline());
  }
  return o;
}

}  // namespace infergate

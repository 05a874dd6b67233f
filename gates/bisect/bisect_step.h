// One step of `git bisect run`: the hidden `infergate bisect-step --state FILE` that git starts
// for every commit it tests. It judges BISECT_HEAD of the bisect's worktree against the ends'
// measurements (commit_judge.h), records what it found for the report, and answers git.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "gates/bisect/bisect_settings.h"

namespace infergate {

// What a bisect hands its steps (a JSON file in the bisect's run folder).
struct StepState {
  BisectSettings settings;
  std::string worktree;     // where `git bisect` runs: BISECT_HEAD is the commit to test
  std::string records_dir;  // each step writes <full hash>.json (a TestedCommit) here
  std::vector<std::string> good_end_results;  // the ends' results files, one per round
  std::vector<std::string> bad_end_results;
};

nlohmann::json to_json(const StepState& s);
StepState step_state_from_json(const nlohmann::json& doc);

// Judges the commit under test and returns git's answer: 0 good, 1 bad, 125 skip. Throws on
// anything that should stop the whole bisect (Interrupted when interrupted).
int run_bisect_step(const std::string& state_path, std::ostream& progress);

}  // namespace infergate

// One commit bisect built and measured, as the reports show it: what it answered, the metric's
// value there and its change against the good end. A `bisect-step` process writes one as JSON
// for the bisect that started it to collect.
#pragma once

#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gates/bisect/bisect_rule.h"
#include "gates/verdict/rule_evaluation.h"

namespace infergate {

inline constexpr const char* kRoleGoodEnd = "good end";
inline constexpr const char* kRoleBadEnd = "bad end";
inline constexpr const char* kRoleStep = "step";

struct TestedCommit {
  std::string commit, subject;
  std::string role = kRoleStep;  // kRoleGoodEnd, kRoleBadEnd or kRoleStep
  StepAnswer answer = StepAnswer::kSkip;
  // "baseline" (the good end), a verdict against it ("regressed", "pass", "improved",
  // "inconclusive"), "build failed" or "run failed".
  std::string verdict;
  std::string reason;
  std::vector<double> values;                               // the metric in every repetition
  double value = std::numeric_limits<double>::quiet_NaN();  // their mean
  // Against the good end (NaN for the good end itself and for commits not measured).
  double relative_change = std::numeric_limits<double>::quiet_NaN();
  double interval_lo = std::numeric_limits<double>::quiet_NaN();
  double interval_hi = std::numeric_limits<double>::quiet_NaN();
  double p_value = std::numeric_limits<double>::quiet_NaN();
  int rounds = 0;  // rounds of measurement
  bool build_reused = false, measurements_reused = false;
  double build_seconds = 0, measure_seconds = 0;  // spent now (0 when all reused)
  std::string build_log;
  std::vector<std::string> results;  // each round's results file

  // Fills the verdict, reason, values and change from an evaluation against the good end.
  void take_evaluation(const RuleEvaluation& e);
};

nlohmann::json to_json(const TestedCommit& t);
TestedCommit tested_commit_from_json(const nlohmann::json& doc);

}  // namespace infergate

#include "gates/verdict/comparison.h"

#include "gates/verdict/error_share_check.h"
#include "gates/verdict/exact_rule_evaluator.h"
#include "gates/verdict/paced_rules.h"
#include "gates/verdict/paired_rule_evaluator.h"
#include "gates/verdict/rule_evaluator.h"

namespace infergate {

namespace {

void note_incomplete(const ResultsFile& r, const char* side, std::vector<std::string>& warnings) {
  if (r.incomplete) {
    warnings.push_back(std::string(side) + " " + r.source +
                       " is marked incomplete (the run was stopped early)");
  }
}

}  // namespace

int gate_exit_code(const std::vector<RuleEvaluation>& evaluations) {
  bool inconclusive = evaluations.empty();
  for (const RuleEvaluation& e : evaluations) {
    if (e.blocks()) return kExitRegression;
    inconclusive = inconclusive || e.blocks_as_inconclusive();
  }
  return inconclusive ? kExitInconclusive : kExitPass;
}

int Comparison::exit_code() const {
  return comparable ? gate_exit_code(evaluations) : kExitIncomparable;
}

const char* Comparison::overall_label() const {
  switch (exit_code()) {
    case kExitPass:
      return "PASS";
    case kExitRegression:
      return "REGRESSED";
    case kExitInconclusive:
      return "INCONCLUSIVE";
    default:
      return "INCOMPARABLE";
  }
}

std::string Comparison::headline() const {
  const std::string label = overall_label();
  if (!comparable) {
    return label + ": " + std::to_string(differences.size()) +
           " fingerprint field(s) differ (--allow-env-diff compares anyway)";
  }
  if (evaluations.empty()) return label + ": no rule applies to workload '" + workload_name + "'";
  int blocking = 0, inconclusive = 0, improved = 0;
  for (const RuleEvaluation& e : evaluations) {
    blocking += e.blocks();
    inconclusive += e.blocks_as_inconclusive();
    improved += e.verdict == Verdict::kImproved;
  }
  const std::string of = " of " + std::to_string(evaluations.size()) + " rule evaluations";
  if (blocking) return label + ": " + std::to_string(blocking) + of + " regressed";
  if (inconclusive) return label + ": " + std::to_string(inconclusive) + of + " inconclusive";
  return label + ": no regression in " + std::to_string(evaluations.size()) + " rule evaluations" +
         (improved ? ", " + std::to_string(improved) + " improved" : "");
}

std::string Comparison::method() const {
  return paired ? "paired runs (Wilcoxon signed-rank test and t interval on the pairs' log ratios)"
                : "independent repetitions (Mann-Whitney U test, bootstrap interval)";
}

Comparison compare_results(const ResultsFile& baseline, const ResultsFile& candidate,
                           const RuleSet& rules, const CompareOptions& options) {
  Comparison c;
  c.baseline_path = baseline.source;
  c.candidate_path = candidate.source;
  c.rules_path = rules.source;
  c.workload_name = candidate.workload_name;
  c.alpha = rules.alpha;
  c.confidence = rules.confidence;
  c.paired = options.paired;
  c.differences = fingerprint_differences(baseline, candidate);
  if (!c.differences.empty()) {
    if (!options.allow_env_diff) {
      c.comparable = false;
      return c;
    }
    c.warnings.push_back(std::to_string(c.differences.size()) +
                         " fingerprint field(s) differ; compared anyway (--allow-env-diff)");
  }
  note_incomplete(baseline, "baseline", c.warnings);
  note_incomplete(candidate, "candidate", c.warnings);
  // `compare` refuses these unless --allow-errors; every report of a comparison says so.
  for (const auto& [side, name] : {std::pair{&baseline, "baseline"}, {&candidate, "candidate"}}) {
    for (std::string& w : error_share_excesses(*side, rules, name)) c.warnings.push_back(w);
  }
  const EvaluationSettings settings{rules.alpha, rules.confidence, rules.bootstrap_iterations,
                                    options.seed, options.justification_root};
  for (const PointResult& base_point : baseline.points) {
    const PointResult* cand_point = point_with_same_sweep(candidate, base_point);
    const std::string label = sweep_point_label(base_point);
    if (!cand_point) {
      c.warnings.push_back("the candidate has no point " + label + "; it was not compared");
      continue;
    }
    for (const GateRule& rule : rules.rules) {
      if (!rule.applies_to(c.workload_name)) continue;
      if (rule.exact && !measured_on_either_side(rule, base_point, *cand_point)) continue;
      c.evaluations.push_back(
          options.paired ? evaluate_paired_rule(rule, base_point, *cand_point, label, settings)
                         : evaluate_rule(rule, base_point, *cand_point, label, settings));
    }
  }
  warn_paced_rules(c, candidate);
  return c;
}

}  // namespace infergate

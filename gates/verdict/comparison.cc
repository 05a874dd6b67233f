#include "gates/verdict/comparison.h"

#include <cmath>
#include <functional>

#include "gates/verdict/error_share_check.h"
#include "gates/verdict/exact_rule_evaluator.h"
#include "gates/verdict/judged_rules.h"
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
  if (deterministic) {
    return "deterministic runs (simulated target: values compared exactly, no repetitions "
           "needed)";
  }
  return paired ? "paired runs (Wilcoxon signed-rank test and t interval on the pairs' log ratios)"
                : "independent repetitions (Mann-Whitney U test, bootstrap interval)";
}

std::string Comparison::statistics_note() const {
  const std::string change = "change = candidate / baseline - 1; ";
  if (deterministic) return change + "deterministic runs: values compared exactly, no interval.";
  if (paired) {
    return change +
           "interval: t confidence interval of the pairs' mean log ratio (the rules file's "
           "statistics.confidence, 0.95 by default); p: one-sided Wilcoxon signed-rank test that "
           "the candidate is worse, over the pairs' log ratios.";
  }
  return change +
         "interval: bootstrap confidence interval of the change (the rules file's "
         "statistics.confidence, 0.95 by default); p: one-sided Mann-Whitney U test that the "
         "candidate is worse, over repetitions.";
}

bool deterministic_results(const ResultsFile& baseline, const ResultsFile& candidate) {
  auto simulated = [](const ResultsFile& r) {
    return r.workload.is_object() && r.workload.contains("target") &&
           r.workload["target"].value("type", std::string()) == "simulated";
  };
  return simulated(baseline) && simulated(candidate);
}

namespace {

// Every numeric summary metric (a number, or a statistic's field) whose point means differ.
void list_changes(const PointResult& base, const PointResult& cand, const std::string& point,
                  std::vector<MetricChange>& out) {
  std::function<void(const nlohmann::json&, const nlohmann::json&, const std::string&)> walk =
      [&](const nlohmann::json& a, const nlohmann::json& b, const std::string& name) {
        if (a.is_object() && b.is_object()) {
          for (const auto& [k, v] : a.items()) {
            if (b.contains(k)) walk(v, b[k], name.empty() ? k : name + "." + k);
          }
          return;
        }
        if (!a.is_number() || !b.is_number() || a == b) return;
        const double x = a.get<double>(), y = b.get<double>();
        out.push_back({point, name, x, y, x != 0 ? y / x - 1 : NAN});
      };
  walk(base.summary, cand.summary, "");
}

// Deterministic runs need no repetitions: one value per side is the value.
GateRule deterministic_rule(GateRule rule) {
  rule.exact = true;
  rule.min_repetitions = 1;
  return rule;
}

}  // namespace

Comparison compare_results(const ResultsFile& baseline, const ResultsFile& candidate,
                           const RuleSet& rules, const CompareOptions& options) {
  Comparison c;
  c.baseline_path = baseline.source;
  c.candidate_path = candidate.source;
  c.rules_path = rules.source;
  c.workload_name = candidate.workload_name;
  c.alpha = rules.alpha;
  c.confidence = rules.confidence;
  c.deterministic = deterministic_results(baseline, candidate);
  c.paired = options.paired && !c.deterministic;
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
    if (c.deterministic) list_changes(base_point, *cand_point, label, c.changes);
    for (const GateRule* judged : judged_rules(rules, c.workload_name, base_point, *cand_point)) {
      const GateRule& rule = *judged;
      if (c.deterministic) {
        c.evaluations.push_back(evaluate_exact_rule(deterministic_rule(rule), base_point,
                                                    *cand_point, label, settings));
      } else {
        c.evaluations.push_back(
            c.paired ? evaluate_paired_rule(rule, base_point, *cand_point, label, settings)
                     : evaluate_rule(rule, base_point, *cand_point, label, settings));
      }
    }
  }
  warn_paced_rules(c, candidate);
  return c;
}

}  // namespace infergate

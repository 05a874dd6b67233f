#include "gates/ab/ab_plan.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>

#include "common/stats/paired_ratio.h"

namespace infergate {

namespace {

std::string format(const char* fmt, double a, double b = 0, double c = 0, double d = 0) {
  char line[256];
  std::snprintf(line, sizeof line, fmt, a, b, c, d);
  return line;
}

// Sample standard deviation of the pairs' log ratios; NaN without two positive pairs.
double log_sd_of(const RuleEvaluation& e) {
  std::vector<double> logs;
  for (size_t i = 0; i < std::min(e.baseline_values.size(), e.candidate_values.size()); ++i) {
    if (e.baseline_values[i] > 0 && e.candidate_values[i] > 0) {
      logs.push_back(std::log(e.candidate_values[i] / e.baseline_values[i]));
    }
  }
  if (logs.size() < 2) return NAN;
  double m = 0, ss = 0;
  for (double l : logs) m += l / double(logs.size());
  for (double l : logs) ss += (l - m) * (l - m);
  return std::sqrt(ss / double(logs.size() - 1));
}

}  // namespace

AbPlan plan_ab(const NoiseProfile& noise, const RuleSet& rules, const std::string& workload,
               const AbDesign& design) {
  AbPlan plan;
  if (noise.paired.empty() || !(noise.seconds_per_pair > 0)) return plan;
  plan.seconds_per_pair = noise.seconds_per_pair;
  plan.budget_pairs =
      std::min(design.max_pairs, int(std::floor(design.budget_seconds / noise.seconds_per_pair)));
  plan.budget_pairs -= plan.budget_pairs % 2;
  for (const GateRule& rule : rules.rules) {
    const PairedNoise* m = noise.find_paired(rule.metric.text);
    if (!rule.applies_to(workload) || rule.severity == Severity::kWarn || !m ||
        !rule.relative_threshold) {
      continue;
    }
    RulePlan r{rule.name, *rule.relative_threshold, m->log_sd, 0, 0};
    r.pairs_needed = pairs_to_detect(r.threshold, r.log_sd, rules.alpha, kPlanPower);
    r.detectable = paired_detectable_change(r.log_sd, plan.budget_pairs, rules.alpha, kPlanPower);
    plan.reachable = plan.reachable && r.pairs_needed <= plan.budget_pairs;
    plan.pairs = std::max(plan.pairs, std::min(r.pairs_needed, plan.budget_pairs));
    plan.rules.push_back(r);
  }
  plan.pairs += plan.pairs % 2;
  return plan;
}

std::vector<std::string> describe_plan(const AbPlan& plan, const AbDesign& design) {
  std::vector<std::string> lines;
  if (plan.rules.empty()) return lines;
  lines.push_back(
      format("plan: %.1f s a pair; the budget (%.1f min, at most %.0f pairs) allows %.0f pairs",
             plan.seconds_per_pair, design.budget_seconds / 60, double(design.max_pairs),
             double(plan.budget_pairs)));
  for (const RulePlan& r : plan.rules) {
    const std::string needed = r.pairs_needed == INT_MAX
                                   ? std::string("more pairs than can be run")
                                   : std::to_string(r.pairs_needed) + " pairs";
    lines.push_back("  " + r.rule + ": paired spread " + format("%.1f%%", 100 * r.log_sd) + "; " +
                    format("%.0f%%", 100 * kPlanPower) + " power at " +
                    format("%.1f%%", 100 * r.threshold) + " needs " + needed +
                    "; the budget detects " + format("%.1f%%", 100 * r.detectable));
  }
  lines.push_back(plan.reachable
                      ? "  the budget reaches every threshold with 95% power (" +
                            std::to_string(plan.pairs) + " pairs)"
                      : "  the budget cannot reach every threshold with 95% power: running " +
                            std::to_string(plan.budget_pairs) +
                            " pairs at most will detect only what is listed above");
  return lines;
}

std::vector<std::string> detectable_after(const Comparison& c, double seconds_per_pair) {
  std::vector<std::string> lines;
  for (const RuleEvaluation& e : c.evaluations) {
    if (!e.blocks_as_inconclusive()) continue;
    const double sd = log_sd_of(e);
    const int n = int(std::min(e.baseline_values.size(), e.candidate_values.size()));
    if (!std::isfinite(sd)) continue;
    const double can = paired_detectable_change(sd, n, c.alpha, kPlanPower);
    const int need = pairs_to_detect(e.effective_threshold, sd, c.alpha, kPlanPower);
    std::string line = e.rule.name + ": " + std::to_string(n) + " pairs (paired spread " +
                       format("%.1f%%", 100 * sd) + ") detect " + format("%.1f%%", 100 * can) +
                       " with 95% power; " + format("%.1f%%", 100 * e.effective_threshold);
    line += need == INT_MAX ? std::string(" is out of reach")
                            : " needs " + std::to_string(need) + " pairs" +
                                  format(" (about %.0f min)", need * seconds_per_pair / 60);
    lines.push_back(line);
  }
  return lines;
}

}  // namespace infergate

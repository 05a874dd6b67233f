// Shared by the report tests: comparisons built by hand (so the reports are tested without the
// statistics), and the paths of the results-file fixtures in tests/gates/data/.
#pragma once

#include <numeric>
#include <string>
#include <vector>

#include "common/results/results_file.h"
#include "gates/verdict/comparison.h"

namespace infergate::report_test {

inline std::string fixture_path(const std::string& name) {
  return std::string(INFERGATE_SOURCE_DIR) + "/tests/gates/data/" + name;
}

inline ResultsFile load_fixture(const std::string& name) {
  return load_results(fixture_path(name));
}

inline GateRule make_rule(const std::string& name, const std::string& metric,
                          Severity severity = Severity::kFail,
                          Direction better = Direction::kLowerIsBetter) {
  GateRule rule;
  rule.name = name;
  rule.metric = parse_metric_key(metric);
  rule.better = better;
  rule.relative_threshold = 0.05;
  rule.severity = severity;
  rule.min_repetitions = 3;
  return rule;
}

inline double mean(const std::vector<double>& v) {
  return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

inline RuleEvaluation make_evaluation(const GateRule& rule, Verdict verdict,
                                      std::vector<double> baseline_values,
                                      std::vector<double> candidate_values) {
  RuleEvaluation e;
  e.rule = rule;
  e.verdict = verdict;
  e.reason = std::string(to_string(verdict)) + " by hand";
  e.baseline_values = std::move(baseline_values);
  e.candidate_values = std::move(candidate_values);
  e.baseline = mean(e.baseline_values);
  e.candidate = mean(e.candidate_values);
  e.relative_change = e.candidate / e.baseline - 1;
  e.interval_lo = e.relative_change - 0.02;
  e.interval_hi = e.relative_change + 0.02;
  e.effective_threshold = 0.05;
  e.p_value = verdict == Verdict::kRegressed || verdict == Verdict::kImproved ? 0.05 : 0.5;
  return e;
}

// Six evaluations, one of each kind the reports tell apart:
//   tpot-p95            regressed, severity fail          -> blocks (failure)
//   ttft-p95            pass
//   request-throughput  improved
//   e2e-p99             inconclusive, severity fail       -> blocks as inconclusive (error)
//   itl-p50             inconclusive, severity warn       -> does not block (skipped)
//   goodput             regressed, severity warn          -> does not block (output only)
inline Comparison sample_comparison() {
  Comparison c;
  c.baseline_path = "results/baseline.json";
  c.candidate_path = "out/candidate run.json";
  c.rules_path = "gates/default.json";
  c.workload_name = "quickstart";
  c.evaluations = {
      make_evaluation(make_rule("tpot-p95", "summary.tpot_ms.p95"), Verdict::kRegressed,
                      {30.1, 30.3, 30.2}, {45.0, 45.2, 44.9}),
      make_evaluation(make_rule("ttft-p95", "summary.ttft_ms.p95"), Verdict::kPass,
                      {93.0, 92.5, 93.4}, {93.1, 92.9, 93.0}),
      make_evaluation(make_rule("request-throughput", "summary.request_throughput_rps",
                                Severity::kFail, Direction::kHigherIsBetter),
                      Verdict::kImproved, {7.6, 7.64, 7.62}, {8.4, 8.5, 8.45}),
      make_evaluation(make_rule("e2e-p99", "summary.e2e_ms.p99"), Verdict::kInconclusive,
                      {1400, 1450}, {1500, 1380}),
      make_evaluation(make_rule("itl-p50", "summary.itl_ms.p50", Severity::kWarn),
                      Verdict::kInconclusive, {24.5, 24.6, 24.4}, {25.5, 24.0, 26.1}),
      make_evaluation(
          make_rule("goodput", "summary.goodput_rps", Severity::kWarn, Direction::kHigherIsBetter),
          Verdict::kRegressed, {7.6, 7.64, 7.62}, {6.4, 6.5, 6.45}),
  };
  c.warnings = {"baseline results/baseline.json is marked incomplete"};
  return c;
}

inline Comparison incomparable_comparison() {
  Comparison c;
  c.baseline_path = "a.json";
  c.candidate_path = "b.json";
  c.rules_path = "gates/default.json";
  c.workload_name = "quickstart";
  c.comparable = false;
  c.differences = {{"manifest.host.cpu_model", "\"Intel(R) Xeon(R)\"", "\"AMD EPYC 7B13\""},
                   {"manifest.host.logical_cores", "2", "8"}};
  return c;
}

}  // namespace infergate::report_test

#include "gates/report/verdicts_json.h"

#include <cmath>

#include "common/report/metric_format.h"
#include "gates/report/reproduce_command.h"

namespace infergate {

namespace {

nlohmann::json number_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nullptr; }

nlohmann::json optional_number(const std::optional<double>& v) {
  return v ? number_or_null(*v) : nullptr;
}

nlohmann::json numbers(const std::vector<double>& values) {
  nlohmann::json out = nlohmann::json::array();
  for (const double v : values) out.push_back(number_or_null(v));
  return out;
}

// FieldDifference holds each side as JSON text; give it back as JSON (text that does not
// parse stays a string).
nlohmann::json json_value(const std::string& text) {
  nlohmann::json v = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  return v.is_discarded() ? nlohmann::json(text) : v;
}

nlohmann::json rule_to_json(const GateRule& rule) {
  return {
      {"name", rule.name},
      {"kind", rule.exact ? "quality" : "metric"},
      {"description", rule.description},
      {"metric", rule.metric.text},
      {"unit", metric_unit(rule.metric.metric)},
      {"better", to_string(rule.better)},
      {"severity", to_string(rule.severity)},
      {"threshold",
       {{"relative", optional_number(rule.relative_threshold)},
        {"absolute", optional_number(rule.absolute_threshold)}}},
      {"min_repetitions", rule.min_repetitions},
      {"justification_file", rule.justification_file.empty()
                                 ? nlohmann::json()
                                 : nlohmann::json(rule.justification_file)},
  };
}

nlohmann::json evaluation_to_json(const RuleEvaluation& e) {
  return {
      {"rule", rule_to_json(e.rule)},
      {"point", e.point.empty() ? nlohmann::json() : nlohmann::json(e.point)},
      {"verdict", to_string(e.verdict)},
      {"reason", e.reason},
      {"baseline", number_or_null(e.baseline)},
      {"candidate", number_or_null(e.candidate)},
      {"relative_change", number_or_null(e.relative_change)},
      {"interval", {number_or_null(e.interval_lo), number_or_null(e.interval_hi)}},
      {"effective_threshold", number_or_null(e.effective_threshold)},
      {"p_value", number_or_null(e.p_value)},
      {"baseline_values", numbers(e.baseline_values)},
      {"candidate_values", numbers(e.candidate_values)},
      {"justified", e.justified},
      {"blocks", e.blocks()},
      {"blocks_as_inconclusive", e.blocks_as_inconclusive()},
      {"warnings", e.warnings},
  };
}

nlohmann::json verdict_counts(const Comparison& c) {
  int pass = 0, regressed = 0, improved = 0, inconclusive = 0, blocking = 0;
  int blocking_inconclusive = 0;
  for (const RuleEvaluation& e : c.evaluations) {
    pass += e.verdict == Verdict::kPass;
    regressed += e.verdict == Verdict::kRegressed;
    improved += e.verdict == Verdict::kImproved;
    inconclusive += e.verdict == Verdict::kInconclusive;
    blocking += e.blocks();
    blocking_inconclusive += e.blocks_as_inconclusive();
  }
  return {{"pass", pass},         {"regressed", regressed},
          {"improved", improved}, {"inconclusive", inconclusive},
          {"blocking", blocking}, {"blocking_inconclusive", blocking_inconclusive}};
}

// Deterministic comparisons: every summary metric that changed (empty otherwise).
nlohmann::json changes_json(const Comparison& c) {
  nlohmann::json out = nlohmann::json::array();
  for (const MetricChange& m : c.changes) {
    out.push_back({{"point", m.point},
                   {"metric", m.metric},
                   {"baseline", m.baseline},
                   {"candidate", m.candidate},
                   {"relative_change", number_or_null(m.relative_change)}});
  }
  return out;
}

}  // namespace

nlohmann::json comparison_to_json(const Comparison& c) {
  nlohmann::json differences = nlohmann::json::array();
  for (const FieldDifference& d : c.differences) {
    differences.push_back({{"field", d.field},
                           {"baseline", json_value(d.baseline)},
                           {"candidate", json_value(d.candidate)}});
  }
  nlohmann::json evaluations = nlohmann::json::array();
  for (const RuleEvaluation& e : c.evaluations) evaluations.push_back(evaluation_to_json(e));
  return {
      {"schema", kVerdictsSchema},
      {"overall", c.overall_label()},
      {"exit_code", c.exit_code()},
      {"headline", c.headline()},
      {"baseline", c.baseline_path},
      {"candidate", c.candidate_path},
      {"rules", c.rules_path.empty() ? nlohmann::json() : nlohmann::json(c.rules_path)},
      {"workload", c.workload_name},
      {"comparable", c.comparable},
      {"differences", differences},
      {"warnings", c.warnings},
      {"extra_repetitions", c.extra_repetitions},
      {"paired", c.paired},
      {"deterministic", c.deterministic},
      {"changes", changes_json(c)},
      {"method", c.method()},
      {"counts", verdict_counts(c)},
      {"evaluations", evaluations},
      {"reproduce", reproduce_command(c)},
  };
}

}  // namespace infergate

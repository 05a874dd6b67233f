#include "gates/bisect/tested_commit.h"

#include <cmath>

namespace infergate {

namespace {

nlohmann::json number_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nullptr; }

double number_or_nan(const nlohmann::json& v) {
  return v.is_number() ? v.get<double>() : std::numeric_limits<double>::quiet_NaN();
}

StepAnswer answer_from(const std::string& text) {
  if (text == "good") return StepAnswer::kGood;
  if (text == "bad") return StepAnswer::kBad;
  return StepAnswer::kSkip;
}

}  // namespace

void TestedCommit::take_evaluation(const RuleEvaluation& e) {
  verdict = to_string(e.verdict);
  reason = e.reason;
  values = e.candidate_values;
  value = e.candidate;
  relative_change = e.relative_change;
  interval_lo = e.interval_lo;
  interval_hi = e.interval_hi;
  p_value = e.p_value;
}

nlohmann::json to_json(const TestedCommit& t) {
  nlohmann::json values = nlohmann::json::array();
  for (const double v : t.values) values.push_back(number_or_null(v));
  return {
      {"commit", t.commit},
      {"subject", t.subject},
      {"role", t.role},
      {"answer", to_string(t.answer)},
      {"verdict", t.verdict},
      {"reason", t.reason},
      {"value", number_or_null(t.value)},
      {"values", values},
      {"relative_change", number_or_null(t.relative_change)},
      {"interval", {number_or_null(t.interval_lo), number_or_null(t.interval_hi)}},
      {"p_value", number_or_null(t.p_value)},
      {"repetitions", t.values.size()},
      {"rounds", t.rounds},
      {"build", {{"reused", t.build_reused}, {"seconds", t.build_seconds}, {"log", t.build_log}}},
      {"measurements",
       {{"reused", t.measurements_reused},
        {"seconds", t.measure_seconds},
        {"results", t.results}}}};
}

TestedCommit tested_commit_from_json(const nlohmann::json& doc) {
  TestedCommit t;
  t.commit = doc.at("commit").get<std::string>();
  t.subject = doc.value("subject", "");
  t.role = doc.value("role", kRoleStep);
  t.answer = answer_from(doc.value("answer", "skip"));
  t.verdict = doc.value("verdict", "");
  t.reason = doc.value("reason", "");
  for (const nlohmann::json& v : doc.value("values", nlohmann::json::array())) {
    t.values.push_back(number_or_nan(v));
  }
  t.value = number_or_nan(doc.value("value", nlohmann::json()));
  t.relative_change = number_or_nan(doc.value("relative_change", nlohmann::json()));
  const nlohmann::json interval = doc.value("interval", nlohmann::json::array());
  if (interval.size() == 2) {
    t.interval_lo = number_or_nan(interval[0]);
    t.interval_hi = number_or_nan(interval[1]);
  }
  t.p_value = number_or_nan(doc.value("p_value", nlohmann::json()));
  t.rounds = doc.value("rounds", 0);
  const nlohmann::json build = doc.value("build", nlohmann::json::object());
  t.build_reused = build.value("reused", false);
  t.build_seconds = build.value("seconds", 0.0);
  t.build_log = build.value("log", "");
  const nlohmann::json m = doc.value("measurements", nlohmann::json::object());
  t.measurements_reused = m.value("reused", false);
  t.measure_seconds = m.value("seconds", 0.0);
  t.results = m.value("results", std::vector<std::string>());
  return t;
}

}  // namespace infergate

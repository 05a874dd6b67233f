#include <catch2/catch.hpp>

#include "gates/rules/rule_set.h"

using namespace infergate;
using json = nlohmann::json;

namespace {

json good_rule() {
  return json::parse(R"({"name": "tpot-p95", "metric": "summary.tpot_ms.p95", "better": "lower",
                         "threshold": {"relative": 0.05}})");
}

json rules_with(const json& rule) {
  return {{"schema", "infergate.gates/v1"}, {"rules", json::array({rule})}};
}

json patched(json rule, const json& patch) {
  rule.merge_patch(patch);
  return rules_with(rule);
}

}  // namespace

TEST_CASE("a minimal rule gets the documented defaults") {
  const RuleSet set = parse_rule_set(rules_with(good_rule()), "g.json");
  REQUIRE(set.rules.size() == 1);
  const GateRule& r = set.rules[0];
  CHECK(set.alpha == 0.05);
  CHECK(r.metric.metric == "tpot_ms");
  CHECK(r.metric.stat == "p95");
  CHECK(r.severity == Severity::kFail);
  CHECK(r.workloads == std::vector<std::string>{"*"});
  CHECK(r.min_repetitions == 5);
  CHECK(r.relative_threshold == 0.05);
  CHECK_FALSE(r.absolute_threshold);
}

TEST_CASE("needs-justification rules default their file to the rule's name") {
  const RuleSet set =
      parse_rule_set(patched(good_rule(), {{"severity", "needs-justification"}}), "g.json");
  CHECK(set.rules[0].justification_file == "perf-justifications/tpot-p95.md");
}

TEST_CASE("bad rules files are rejected with the file, the JSON path and the allowed values") {
  struct Case {
    const char* label;
    json doc;
    const char* expected;
  };
  const json rule = good_rule();
  const std::vector<Case> cases = {
      {"wrong schema",
       {{"schema", "x"}, {"rules", json::array({rule})}},
       "g.json: $.schema: is 'x', expected 'infergate.gates/v1'"},
      {"no rules",
       {{"schema", "infergate.gates/v1"}, {"rules", json::array()}},
       "g.json: $.rules: expected a non-empty array of rules"},
      {"unknown direction", patched(rule, {{"better", "faster"}}),
       "g.json: $.rules[0].better: 'faster' is not allowed (allowed: lower, higher)"},
      {"unknown severity", patched(rule, {{"severity", "fatal"}}),
       "$.rules[0].severity: 'fatal' is not allowed (allowed: fail, warn, needs-justification)"},
      {"bad metric key", patched(rule, {{"metric", "tpot_ms.p95"}}),
       "$.rules[0].metric: metric key 'tpot_ms.p95' must look like summary.<metric>[.<stat>]"},
      {"bad statistic", patched(rule, {{"metric", "summary.tpot_ms.p42"}}),
       "unknown statistic 'p42' (allowed: count, mean, min, p50, p90, p95, p99, max)"},
      {"no threshold", patched(rule, {{"threshold", {{"relative", nullptr}}}}),
       "$.rules[0].threshold: needs \"relative\""},
      {"negative threshold", patched(rule, {{"threshold", {{"relative", -0.1}}}}),
       "$.rules[0].threshold.relative: -0.100000 is out of range"},
      {"misspelled key", patched(rule, {{"treshold", 1}}),
       "$.rules[0].treshold: unknown key (allowed:"},
      {"missing name", patched(rule, {{"name", nullptr}}), "$.rules[0].name: missing"},
      {"too few repetitions for alpha", patched(rule, {{"min_repetitions", 3}}),
       "$.rules[0].min_repetitions: 3 is too few: with fewer than 4 repetitions"},
      {"empty glob list", patched(rule, {{"workloads", json::array()}}),
       "$.rules[0].workloads: expected a non-empty array of glob strings"},
      {"bad alpha",
       {{"schema", "infergate.gates/v1"},
        {"statistics", {{"alpha", 2}}},
        {"rules", json::array({rule})}},
       "$.statistics.alpha: 2.000000 is out of range"},
  };
  for (const Case& c : cases) {
    INFO(c.label);
    CHECK_THROWS_WITH(parse_rule_set(c.doc, "g.json"), Catch::Contains(c.expected));
  }
}

TEST_CASE("duplicate rule names are rejected") {
  json doc = rules_with(good_rule());
  doc["rules"].push_back(good_rule());
  CHECK_THROWS_WITH(parse_rule_set(doc, "g.json"),
                    Catch::Contains("$.rules[1].name: duplicate rule name 'tpot-p95'"));
}

TEST_CASE("a stricter alpha needs more repetitions per side") {
  json doc = patched(good_rule(), {{"min_repetitions", 4}});
  doc["statistics"] = {{"alpha", 0.01}};
  CHECK_THROWS_WITH(parse_rule_set(doc, "g.json"), Catch::Contains("fewer than 5 repetitions"));
}

TEST_CASE("a missing or non-JSON rules file names the file") {
  CHECK_THROWS_WITH(load_rule_set("/nonexistent/rules.json"),
                    Catch::Contains("/nonexistent/rules.json: no such file"));
}

TEST_CASE("workload globs select rules") {
  GateRule r;
  r.workloads = {"chat-*", "quickstart"};
  CHECK(r.applies_to("chat-short"));
  CHECK(r.applies_to("quickstart"));
  CHECK_FALSE(r.applies_to("long-prompt"));
}

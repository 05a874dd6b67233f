// The gate cannot be fooled or made to write outside its folder: workload names become safe file
// names, justification files must be inside the checkout and name what they justify, and
// results whose requests failed are refused under the error-share rule (docs/gates.md).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "common/util/safe_file_name.h"
#include "gates/baseline/baseline_store.h"
#include "gates/rules/default_rules.h"
#include "gates/rules/rule_set.h"
#include "gates/verdict/comparison.h"
#include "gates/verdict/error_share_check.h"
#include "gates/verdict/justification.h"
#include "tests/gates/synthetic_results.h"

using namespace infergate;
using namespace infergate::gates_test;
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("infergate-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

GateRule memory_rule() {
  GateRule r;
  r.name = "peak-memory";
  r.metric = parse_metric_key("summary.peak_memory_bytes");
  r.severity = Severity::kNeedsJustification;
  r.justification_file = "perf-justifications/peak-memory.md";
  return r;
}

json rules_with(const json& rule) {
  return {{"schema", "infergate.gates/v1"}, {"rules", json::array({rule})}};
}

// A point of 24 requests of which `failed` failed, one class.
ResultsFile with_failures(int failed) {
  json doc = results_doc({{{"num_requests", 24},
                           {"num_completed", 24 - failed},
                           {"num_errors", failed},
                           {"num_aborted", 0}}},
                         "quickstart");
  if (failed > 0) {
    doc["points"][0]["repetitions"][0]["errors"] = {
        {{"class", "connection refused"},
         {"count", failed},
         {"first_message", "cannot connect to http://127.0.0.1:9: Connection refused"}}};
  }
  return parse_results(doc, "run.json");
}

}  // namespace

TEST_CASE("safe file names keep plain names and never climb out of a folder") {
  CHECK(safe_file_name("quickstart") == "quickstart");
  CHECK(safe_file_name("rate-sweep_v2.1") == "rate-sweep_v2.1");
  const std::vector<std::string> unsafe = {
      "../../../escaped", "..", ".", "", "a/b", "/etc/passwd", std::string(300, 'x')};
  for (const std::string& name : unsafe) {
    const std::string safe = safe_file_name(name);
    INFO(name << " -> " << safe);
    CHECK(safe.find('/') == std::string::npos);
    CHECK(safe.front() != '.');
    CHECK(safe.size() <= 120);
    CHECK(safe != name);
  }
  CHECK(safe_file_name("a/b") != safe_file_name("a-b"));  // the hash keeps them apart
}

TEST_CASE("a workload named ../../../escaped is stored inside the baseline folder") {
  const fs::path root = fresh_dir("baselines-escape") / "store";
  const BaselineStore store(root.string());
  const std::string path = store.update(results_of({{{"tpot_ms.p95", 20}}}, "../../../escaped"));
  const fs::path real = fs::weakly_canonical(path);
  const fs::path real_root = fs::weakly_canonical(root);
  CHECK(real.string().rfind(real_root.string() + "/", 0) == 0);
  CHECK(fs::exists(real));
  CHECK_FALSE(fs::exists(root.parent_path().parent_path() / "escaped.json"));
  // and it is found again by the same name
  CHECK(store.load_for(results_of({{{"tpot_ms.p95", 20}}}, "../../../escaped")).source == path);
  fs::remove_all(root.parent_path());
}

TEST_CASE("justification files outside the checkout are refused when the rules are read") {
  json rule = json::parse(R"({"name": "peak-memory", "metric": "summary.peak_memory_bytes",
      "better": "lower", "threshold": {"relative": 0.1}, "severity": "needs-justification"})");
  for (const char* file : {"/etc/passwd", "../outside.md", "perf-justifications/../../x.md"}) {
    rule["justification_file"] = file;
    INFO(file);
    CHECK_THROWS_WITH(
        parse_rule_set(rules_with(rule), "g.json"),
        Catch::Contains("g.json: $.rules[0].justification_file: '" + std::string(file) +
                        "' must be a relative path inside the change's checkout"));
  }
}

TEST_CASE("a justification must be inside the root and name the rule it justifies") {
  const fs::path root = fresh_dir("justify");
  const GateRule rule = memory_rule();
  CHECK_THAT(check_justification(rule, root.string()).reason,
             Catch::Contains("needs a justification: add perf-justifications/peak-memory.md"));
  fs::create_directories(root / "perf-justifications");
  // a symlink to a file outside (say /etc/passwd) justifies nothing
  const fs::path outside = fresh_dir("justify-outside") / "passwd";
  std::ofstream(outside) << "justifies: peak-memory\n";
  fs::create_symlink(outside, root / "perf-justifications/peak-memory.md");
  JustificationCheck j = check_justification(rule, root.string());
  CHECK_FALSE(j.justified);
  CHECK_THAT(j.reason, Catch::Contains("outside"));
  fs::remove(root / "perf-justifications/peak-memory.md");
  // a file that does not say what it justifies
  std::ofstream(root / "perf-justifications/peak-memory.md") << "root:x:0:0:root:/root:/bin/sh\n";
  j = check_justification(rule, root.string());
  CHECK_FALSE(j.justified);
  CHECK_THAT(j.reason, Catch::Contains("does not say it justifies this rule: add a line "
                                       "\"justifies: peak-memory\""));
  // one that names another rule
  std::ofstream(root / "perf-justifications/peak-memory.md") << "justifies: tpot-p95\n";
  CHECK_FALSE(check_justification(rule, root.string()).justified);
  // one that names this rule
  std::ofstream(root / "perf-justifications/peak-memory.md")
      << "# Bigger KV cache\n\nJustifies: peak-memory, tpot-p95\n\nThe cache is doubled on "
         "purpose.\n";
  j = check_justification(rule, root.string());
  CHECK(j.justified);
  CHECK(j.reason == "justified by perf-justifications/peak-memory.md");
  fs::remove_all(root);
  fs::remove_all(outside.parent_path());
}

TEST_CASE("the error-share rule kind is parsed strictly and the default rules carry 1%") {
  const RuleSet set = parse_rule_set(
      rules_with({{"name", "errors"}, {"kind", "error-share"}, {"max_share", 0.05}}), "g.json");
  REQUIRE(set.error_share_rules.size() == 1);
  CHECK(set.rules.empty());
  CHECK(set.error_share_limit("anything").max_share == 0.05);
  CHECK(set.error_share_limit("anything").rule == "errors");
  CHECK_THROWS_WITH(
      parse_rule_set(rules_with({{"name", "e"}, {"kind", "error-share"}, {"max_share", 2}}),
                     "g.json"),
      Catch::Contains("g.json: $.rules[0].max_share: 2.000000 is out of range"));
  CHECK_THROWS_WITH(parse_rule_set(rules_with({{"name", "e"}, {"kind", "error-share"}}), "g.json"),
                    Catch::Contains("$.rules[0].max_share: missing"));
  CHECK_THROWS_WITH(
      parse_rule_set(rules_with({{"name", "e"}, {"kind", "errors"}, {"max_share", 0.1}}), "g.json"),
      Catch::Contains(
          "$.rules[0].kind: 'errors' is not allowed (allowed: metric, quality, error-share)"));
  CHECK_THROWS_WITH(parse_rule_set(rules_with({{"name", "e"},
                                               {"kind", "error-share"},
                                               {"max_share", 0.1},
                                               {"metric", "summary.tpot_ms.p95"}}),
                                   "g.json"),
                    Catch::Contains("$.rules[0].metric: unknown key"));
  const ErrorShareLimit builtin = default_rule_set().error_share_limit("quickstart");
  CHECK(builtin.max_share == 0.01);
  CHECK(builtin.rule == "error-share");
}

TEST_CASE("results with failed requests above the limit are named with their counts") {
  const RuleSet rules = default_rule_set();
  CHECK(error_share_excesses(with_failures(0), rules, "candidate").empty());
  const std::vector<std::string> all = error_share_excesses(with_failures(24), rules, "candidate");
  REQUIRE(all.size() == 1);
  CHECK(all[0] ==
        "candidate run.json: 24 of 24 requests failed: connection refused: 24 (first: cannot "
        "connect to http://127.0.0.1:9: Connection refused) (100%), above the 1% limit of rule "
        "'error-share'");
  // a rules file without an error-share rule still refuses, at the built-in 1%
  RuleSet custom;
  const std::vector<std::string> one = error_share_excesses(with_failures(1), custom, "baseline");
  REQUIRE(one.size() == 1);
  CHECK_THAT(one[0], Catch::Contains("1 of 24 requests failed") &&
                         Catch::Contains("the built-in error-share default"));
  custom.error_share_rules.push_back({"lenient", "", 0.5, {"*"}});
  CHECK(error_share_excesses(with_failures(1), custom, "baseline").empty());
  // judged anyway (compare --allow-errors, report), every report of the comparison says so
  const Comparison c = compare_results(with_failures(24), with_failures(0), rules, {});
  REQUIRE_FALSE(c.warnings.empty());
  CHECK_THAT(c.warnings.back(), Catch::StartsWith("baseline run.json: 24 of 24 requests failed"));
}

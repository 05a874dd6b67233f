// Rules the workload's design cannot move (gates/verdict/paced_rules.h): throughput of an open
// loop the target keeps up with is the arrival rate.
#include "gates/verdict/paced_rules.h"

#include <catch2/catch.hpp>

#include "gates/rules/default_rules.h"
#include "gates/verdict/comparison.h"
#include "tests/gates/synthetic_results.h"

using namespace infergate;
using namespace infergate::gates_test;

namespace {

nlohmann::json workload_with(const nlohmann::json& load) { return {{"name", "w"}, {"load", load}}; }

// Six repetitions a side of an open loop at 8 req/s completing `rps`.
ResultsFile open_loop_results(double rps, uint64_t seed) {
  std::vector<RepetitionMetrics> reps = noisy("tpot_ms.p95", 20, 0.01, 6, seed);
  for (RepetitionMetrics& r : reps) r["request_throughput_rps"] = rps;
  nlohmann::json doc = results_doc(reps, "w");
  doc["workload"]["load"] = {{"mode", "open"}, {"rate", 8.0}};
  rehash(doc);
  return parse_results(doc, "w.json");
}

std::vector<std::string> warnings_of(const Comparison& c, const std::string& rule) {
  for (const RuleEvaluation& e : c.evaluations) {
    if (e.rule.name == rule) return e.warnings;
  }
  FAIL("no evaluation of " << rule);
  return {};
}

}  // namespace

TEST_CASE("validate notes the throughput rules an open loop without a cap cannot move") {
  const RuleSet rules = default_rule_set();
  const std::vector<std::string> notes =
      paced_rule_notes(rules, workload_with({{"mode", "open"}, {"rate", 8}}));
  REQUIRE(notes.size() == 2);  // request-throughput and output-throughput; goodput can move
  CHECK_THAT(notes[0],
             Catch::Contains("'request-throughput'") && Catch::Contains("closed-loop workload"));
  CHECK_THAT(notes[1], Catch::Contains("'output-throughput'"));
  CHECK(paced_rule_notes(rules, workload_with({{"mode", "closed"}, {"concurrency", 4}})).empty());
  CHECK(paced_rule_notes(rules,
                         workload_with({{"mode", "open"}, {"rate", 8}, {"max_concurrency", 4}}))
            .empty());
}

TEST_CASE("compare warns on a throughput rule where the target kept up with its arrivals") {
  const RuleSet rules = default_rule_set();
  const Comparison kept_up =
      compare_results(open_loop_results(7.9, 1), open_loop_results(7.9, 2), rules, {});
  const std::vector<std::string> w = warnings_of(kept_up, "request-throughput");
  REQUIRE(w.size() == 1);
  CHECK_THAT(w[0], Catch::Contains("cannot detect a slowdown") &&
                       Catch::Contains("7.9 req/s completed at 8 req/s arriving"));
  CHECK(warnings_of(kept_up, "tpot-p95").empty());

  // Saturated: the target completes far fewer than arrive, so throughput measures capacity.
  const Comparison saturated =
      compare_results(open_loop_results(3.0, 1), open_loop_results(3.0, 2), rules, {});
  CHECK(warnings_of(saturated, "request-throughput").empty());
}

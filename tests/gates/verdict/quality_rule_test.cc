// Rules of kind "quality": computed metrics (KL divergence, top-1 agreement) compared outright
// against their thresholds, and skipped where neither side measured them.
#include <catch2/catch.hpp>

#include "gates/rules/rule_set.h"
#include "gates/verdict/comparison.h"
#include "gates/verdict/exact_rule_evaluator.h"
#include "tests/gates/synthetic_results.h"

using namespace infergate;
using namespace infergate::gates_test;
using json = nlohmann::json;

namespace {

RuleSet kl_rules(const json& threshold) {
  return parse_rule_set({{"schema", "infergate.gates/v1"},
                         {"statistics", {{"alpha", 0.01}}},
                         {"rules",
                          {{{"name", "kl"},
                            {"kind", "quality"},
                            {"metric", "summary.kl_divergence_mean"},
                            {"better", "lower"},
                            {"threshold", threshold}}}}},
                        "q.json");
}

std::vector<RepetitionMetrics> kl_of(double kl, int repetitions) {
  return std::vector<RepetitionMetrics>(size_t(repetitions), {{"kl_divergence_mean", kl}});
}

Verdict judge(const RuleSet& rules, double base, double cand, int reps = 1) {
  const Comparison c = compare_results(results_of(kl_of(base, reps)), results_of(kl_of(cand, reps)),
                                       rules, CompareOptions{});
  REQUIRE(c.evaluations.size() == 1);
  return c.evaluations[0].verdict;
}

}  // namespace

TEST_CASE("a quality rule needs one repetition, even at an alpha the U test needs 6 for") {
  const RuleSet set = kl_rules({{"absolute", 0.002}});
  REQUIRE(set.rules.size() == 1);
  CHECK(set.rules[0].exact);
  CHECK(set.rules[0].min_repetitions == 1);
  CHECK(judge(set, 0.010, 0.013) == Verdict::kRegressed);
  CHECK(judge(set, 0.010, 0.011) == Verdict::kPass);
  CHECK(judge(set, 0.010, 0.007) == Verdict::kImproved);
  CHECK(judge(set, 0.010, 0.010, 3) == Verdict::kPass);
}

TEST_CASE("a quality rule regresses only beyond every threshold it gives") {
  const RuleSet both = kl_rules({{"absolute", 0.002}, {"relative", 0.05}});
  CHECK(judge(both, 0.010, 0.013) == Verdict::kRegressed);  // +0.003 and +30%
  CHECK(judge(both, 1.000, 1.003) == Verdict::kPass);       // +0.003 but +0.3%
  CHECK(judge(both, 1.000, 1.060) == Verdict::kRegressed);  // +0.06 and +6%
  const RuleSet relative = kl_rules({{"relative", 0.05}});
  CHECK(judge(relative, 0.0, 0.0) == Verdict::kPass);  // f32 against f32: zero on both sides
  CHECK(judge(relative, 0.0, 1e-9) == Verdict::kRegressed);
}

TEST_CASE("higher-is-better quality metrics regress when they fall") {
  const RuleSet set = parse_rule_set(json::parse(R"({"schema": "infergate.gates/v1", "rules": [
      {"name": "top1", "kind": "quality", "metric": "summary.top1_agreement", "better": "higher",
       "threshold": {"absolute": 0.01}}]})"),
                                     "q.json");
  const auto top1 = [](double v) {
    return results_of(std::vector<RepetitionMetrics>{{{"top1_agreement", v}}});
  };
  const Comparison down = compare_results(top1(0.95), top1(0.93), set, CompareOptions{});
  REQUIRE(down.evaluations.size() == 1);
  CHECK(down.evaluations[0].verdict == Verdict::kRegressed);
  CHECK_THAT(down.evaluations[0].reason, Catch::Contains("worse by 0.02"));
  CHECK(down.exit_code() == kExitRegression);
}

TEST_CASE("workloads without quality metrics are not judged by quality rules") {
  const RuleSet set = kl_rules({{"absolute", 0.002}});
  const ResultsFile plain = results_of({{{"tpot_ms.p95", 10.0}}});
  const Comparison c = compare_results(plain, plain, set, CompareOptions{});
  CHECK(c.evaluations.empty());
}

TEST_CASE("a quality metric on one side only is inconclusive, and says which side lacks it") {
  const RuleSet set = kl_rules({{"absolute", 0.002}});
  const Comparison c = compare_results(results_of({{{"tpot_ms.p95", 10.0}}}),
                                       results_of(kl_of(0.01, 1)), set, CompareOptions{});
  REQUIRE(c.evaluations.size() == 1);
  CHECK(c.evaluations[0].verdict == Verdict::kInconclusive);
  CHECK_THAT(c.evaluations[0].reason, Catch::Contains("absent from baseline"));
}

TEST_CASE(
    "a quality metric that moves between repetitions is compared by its mean, with a "
    "warning") {
  const RuleSet set = kl_rules({{"absolute", 0.002}});
  const ResultsFile base = results_of(kl_of(0.010, 2));
  const ResultsFile moving =
      results_of({{{"kl_divergence_mean", 0.010}}, {{"kl_divergence_mean", 0.011}}});
  CompareOptions paired;
  paired.paired = true;
  for (const CompareOptions& o : {CompareOptions{}, paired}) {
    const Comparison c = compare_results(base, moving, set, o);
    REQUIRE(c.evaluations.size() == 1);
    CHECK(c.evaluations[0].verdict == Verdict::kPass);
    CHECK(c.evaluations[0].candidate == Approx(0.0105));
    REQUIRE(c.evaluations[0].warnings.size() == 1);
    CHECK_THAT(c.evaluations[0].warnings[0], Catch::Contains("differs between the candidate's"));
  }
}

TEST_CASE("the default rules carry the quality rules") {
  const RuleSet set = load_rule_set(std::string(INFERGATE_SOURCE_DIR) + "/gates/default.json");
  int exact = 0;
  for (const GateRule& r : set.rules) exact += r.exact;
  CHECK(exact == 2);
}

TEST_CASE("a quality rule on the valid-output rate fails a change that lets invalid answers out") {
  const RuleSet set = parse_rule_set(json::parse(R"({"schema": "infergate.gates/v1", "rules": [
      {"name": "valid-output", "kind": "quality", "metric": "summary.valid_output_rate",
       "better": "higher", "threshold": {"absolute": 0.01}}]})"),
                                     "q.json");
  const auto rate = [](double v) {
    return results_of(std::vector<RepetitionMetrics>(3, {{"valid_output_rate", v}}));
  };
  const Comparison worse = compare_results(rate(1.0), rate(0.9), set, CompareOptions{});
  REQUIRE(worse.evaluations.size() == 1);
  CHECK(worse.evaluations[0].verdict == Verdict::kRegressed);
  CHECK(worse.exit_code() == kExitRegression);
  const Comparison same = compare_results(rate(1.0), rate(0.995), set, CompareOptions{});
  CHECK(same.evaluations[0].verdict == Verdict::kPass);
}

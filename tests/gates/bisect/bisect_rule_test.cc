// How bisect judges: the direction a metric improves in from its name, the rule built from the
// command line, the answer each verdict gives `git bisect run`, and the ends' one-line summary.
#include <catch2/catch.hpp>

#include "gates/bisect/bisect_rule.h"

using namespace infergate;

TEST_CASE("latencies, durations and sizes are better lower, rates better higher") {
  CHECK(default_direction(parse_metric_key("summary.tpot_ms.p95")) == Direction::kLowerIsBetter);
  CHECK(default_direction(parse_metric_key("summary.duration_s")) == Direction::kLowerIsBetter);
  CHECK(default_direction(parse_metric_key("summary.peak_memory_bytes")) ==
        Direction::kLowerIsBetter);
  CHECK(default_direction(parse_metric_key("summary.request_throughput_rps")) ==
        Direction::kHigherIsBetter);
  CHECK(default_direction(parse_metric_key("summary.output_throughput_tps")) ==
        Direction::kHigherIsBetter);
  CHECK(default_direction(parse_metric_key("summary.good_fraction")) == Direction::kHigherIsBetter);
}

TEST_CASE("a metric whose name does not say which way is better has no default direction") {
  CHECK_FALSE(default_direction(parse_metric_key("summary.utilization_pct")));
  CHECK_FALSE(default_direction(parse_metric_key("summary.preemptions")));
}

TEST_CASE("the bisect rule takes the threshold as a fraction and needs --repeat a side") {
  const GateRule rule =
      bisect_rule(parse_metric_key("summary.tpot_ms.p50"), Direction::kLowerIsBetter, 0.05, 4);
  CHECK(rule.metric.text == "summary.tpot_ms.p50");
  CHECK(rule.relative_threshold == 0.05);
  CHECK_FALSE(rule.absolute_threshold);
  CHECK(rule.min_repetitions == 4);
  CHECK(rule.severity == Severity::kFail);
}

TEST_CASE("regressed is bad, pass and improved are good, inconclusive has no answer yet") {
  CHECK(answer_for(Verdict::kRegressed) == StepAnswer::kBad);
  CHECK(answer_for(Verdict::kPass) == StepAnswer::kGood);
  CHECK(answer_for(Verdict::kImproved) == StepAnswer::kGood);
  CHECK_FALSE(answer_for(Verdict::kInconclusive));
}

TEST_CASE("the answers are the exit codes git bisect run reads") {
  CHECK(int(StepAnswer::kGood) == 0);
  CHECK(int(StepAnswer::kBad) == 1);
  CHECK(int(StepAnswer::kSkip) == 125);
  CHECK(std::string(to_string(StepAnswer::kSkip)) == "skip");
}

TEST_CASE("ends that do not differ are summarized with change, interval, p and threshold") {
  RuleEvaluation e;
  e.rule = bisect_rule(parse_metric_key("summary.tpot_ms.p95"), Direction::kLowerIsBetter, 0.05, 5);
  e.verdict = Verdict::kPass;
  e.relative_change = 0.012;
  e.interval_lo = -0.031;
  e.interval_hi = 0.04;
  e.p_value = 0.42;
  CHECK(ends_do_not_differ_message(e) ==
        "the ends do not differ: summary.tpot_ms.p95 +1.20% [-3.10%, +4.00%], p = 0.42 "
        "(threshold 5%)");
  e.verdict = Verdict::kImproved;
  CHECK_THAT(ends_do_not_differ_message(e),
             Catch::Matchers::StartsWith("the ends do not differ (the bad end is better): "));
}

TEST_CASE("inconclusive ends say how many repetitions were not enough") {
  RuleEvaluation e;
  e.rule = bisect_rule(parse_metric_key("summary.tpot_ms.p95"), Direction::kLowerIsBetter, 0.05, 4);
  e.verdict = Verdict::kInconclusive;
  e.candidate_values = {1, 2, 3, 4, 5, 6, 7, 8};
  e.reason = "the interval reaches past the threshold";
  CHECK_THAT(ends_do_not_differ_message(e),
             Catch::Matchers::Contains("inconclusive with 8 repetitions a side") &&
                 Catch::Matchers::Contains("--repeat"));
}

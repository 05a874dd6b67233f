// A commit between the ends is judged against both: regressed against the good end is bad,
// passing against it is good, and clearly better than the bad end is good too (noise may keep
// the interval against the good end from ruling out a small change, but the regression being
// hunted is not there).
#include <catch2/catch.hpp>

#include "gates/bisect/commit_judge.h"

using namespace infergate;

namespace {

RuleEvaluation with(Verdict v) {
  RuleEvaluation e;
  e.verdict = v;
  return e;
}

}  // namespace

TEST_CASE("regressed against the good end is bad, whatever the bad end says") {
  CHECK(judge_against_ends(with(Verdict::kRegressed), with(Verdict::kImproved)) ==
        StepAnswer::kBad);
  CHECK(judge_against_ends(with(Verdict::kRegressed), with(Verdict::kPass)) == StepAnswer::kBad);
}

TEST_CASE("passing or improving against the good end is good") {
  CHECK(judge_against_ends(with(Verdict::kPass), with(Verdict::kInconclusive)) ==
        StepAnswer::kGood);
  CHECK(judge_against_ends(with(Verdict::kImproved), with(Verdict::kImproved)) ==
        StepAnswer::kGood);
}

TEST_CASE("inconclusive against the good end but better than the bad end is good") {
  CHECK(judge_against_ends(with(Verdict::kInconclusive), with(Verdict::kImproved)) ==
        StepAnswer::kGood);
}

TEST_CASE("inconclusive against the good end and not better than the bad end is undecided") {
  CHECK_FALSE(judge_against_ends(with(Verdict::kInconclusive), with(Verdict::kInconclusive)));
  CHECK_FALSE(judge_against_ends(with(Verdict::kInconclusive), with(Verdict::kPass)));
}

TEST_CASE("the state file carries the paired design to every bisect-step") {
  BisectSettings s;
  s.good = "a";
  s.bad = "b";
  s.metric = "summary.tpot_ms.p50";
  s.measure.repetitions = 6;
  s.paired = true;
  s.design.max_pairs = 24;
  s.design.budget_seconds = 300;
  s.pairs_dir = "/tmp/out/pairs";
  const BisectSettings back = bisect_settings_from_json(to_json(s));
  CHECK(back.paired);
  CHECK(back.design.min_pairs == 6);  // the pairs before the first look are --repeat
  CHECK(back.design.max_pairs == 24);
  CHECK(back.design.budget_seconds == 300);
  CHECK(back.pairs_dir == "/tmp/out/pairs");
  // A state written before --paired existed reads as unpaired.
  nlohmann::json old = to_json(s);
  for (const char* key : {"paired", "max_pairs", "budget_seconds", "pairs_dir"}) old.erase(key);
  CHECK_FALSE(bisect_settings_from_json(old).paired);
}

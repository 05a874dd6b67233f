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

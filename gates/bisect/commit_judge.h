// Builds and measures the commits of one bisect and judges each against the good end: the shared
// work of the ends (bisect_session.h) and of every `bisect-step` (bisect_step.h).
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "common/results/results_file.h"
#include "gates/bisect/bisect_settings.h"
#include "gates/bisect/commit_build_cache.h"
#include "gates/bisect/git_repo.h"
#include "gates/bisect/tested_commit.h"
#include "gates/verdict/rule_evaluation.h"

namespace infergate {

// A commit's answer from its comparisons with both ends (the report shows the one against the
// good end): bad when it regressed against the good end; good when it passes against the good
// end, or is better than the bad end beyond the threshold (it does not have the regression,
// even if noise keeps its interval against the good end from ruling out a smaller change);
// nullopt otherwise (inconclusive).
std::optional<StepAnswer> judge_against_ends(const RuleEvaluation& vs_good,
                                             const RuleEvaluation& vs_bad);

class CommitJudge {
 public:
  // Throws std::invalid_argument for a metric key that does not parse.
  CommitJudge(const GitRepo& repo, const BisectSettings& settings, std::ostream& progress);

  const GateRule& rule() const { return rule_; }

  // Builds `commit` (from the cache when it can), filling t's commit, subject and build fields;
  // a failed build also makes t a skip with the reason.
  CommitBuild build(const std::string& commit, TestedCommit& t) const;
  // One more round of measurement; false (with t.verdict "run failed" and the reason) when the
  // run failed.
  bool measure_round(const CommitBuild& b, TestedCommit& t) const;
  // The candidate against the baseline under rule().
  RuleEvaluation evaluate(const PointResult& baseline, const PointResult& candidate) const;

  // A commit between the ends, built, measured and judged (judge_against_ends), with more
  // rounds while inconclusive; skip when the build or a run fails or it stays inconclusive.
  // Paired (settings.paired): an A/B session against the good end's build, and one against the
  // bad end's when that stays inconclusive; the ends' results are then unused.
  TestedCommit judge(const std::string& commit, const PointResult& good_end,
                     const PointResult& bad_end) const;

  // `candidate` run alternately with `baseline` in an A/B session (gates/ab/ab_session.h) under
  // settings.pairs_dir/<name>, judged under rule(); the session's candidate side is added to t
  // (results, seconds, rounds). nullopt, with t a skip and the reason, when a run or a side's
  // requests failed. Throws Interrupted on Ctrl-C.
  std::optional<RuleEvaluation> compare_paired(const CommitBuild& baseline,
                                               const CommitBuild& candidate,
                                               const std::string& name, TestedCommit& t) const;

 private:
  void judge_paired(const CommitBuild& b, TestedCommit& t) const;

  const GitRepo& repo_;
  const BisectSettings& settings_;
  std::ostream& progress_;
  GateRule rule_;
  CommitBuildCache builds_;
};

}  // namespace infergate

#include "gates/bisect/commit_judge.h"

#include "gates/bisect/commit_measurement.h"
#include "gates/report/metric_format.h"
#include "gates/verdict/rule_evaluator.h"

namespace infergate {

std::optional<StepAnswer> judge_against_ends(const RuleEvaluation& vs_good,
                                             const RuleEvaluation& vs_bad) {
  if (vs_good.verdict == Verdict::kRegressed) return StepAnswer::kBad;
  if (vs_good.verdict == Verdict::kPass || vs_good.verdict == Verdict::kImproved) {
    return StepAnswer::kGood;
  }
  if (vs_bad.verdict == Verdict::kImproved) return StepAnswer::kGood;
  return std::nullopt;
}

CommitJudge::CommitJudge(const GitRepo& repo, const BisectSettings& settings,
                         std::ostream& progress)
    : repo_(repo),
      settings_(settings),
      progress_(progress),
      rule_(bisect_rule(parse_metric_key(settings.metric), settings.better, settings.threshold,
                        settings.measure.repetitions)),
      builds_(repo, settings.cache_dir, settings.build) {}

CommitBuild CommitJudge::build(const std::string& commit, TestedCommit& t) const {
  t.commit = commit;
  if (t.subject.empty()) t.subject = repo_.subject(commit);
  const CommitBuild b = builds_.build(commit, progress_);
  t.build_reused = b.reused;
  t.build_seconds = b.seconds;
  t.build_log = b.log_path;
  if (!b.ok) {
    t.answer = StepAnswer::kSkip;
    t.verdict = "build failed";
    t.reason = b.error;
  }
  return b;
}

bool CommitJudge::measure_round(const CommitBuild& b, TestedCommit& t) const {
  const Measurement m = infergate::measure_round(b, settings_.measure, t.rounds, progress_);
  if (!m.ok) {
    t.answer = StepAnswer::kSkip;
    t.verdict = "run failed";
    t.reason = m.error;
    return false;
  }
  t.measurements_reused = (t.rounds == 0 || t.measurements_reused) && m.reused;
  t.measure_seconds += m.seconds;
  t.results.push_back(m.results_path);
  ++t.rounds;
  return true;
}

RuleEvaluation CommitJudge::evaluate(const PointResult& baseline,
                                     const PointResult& candidate) const {
  EvaluationSettings e;
  e.seed = settings_.seed;
  return evaluate_rule(rule_, baseline, candidate, "", e);
}

TestedCommit CommitJudge::judge(const std::string& commit, const PointResult& good_end,
                                const PointResult& bad_end) const {
  TestedCommit t;
  t.role = kRoleStep;
  const CommitBuild b = build(commit, t);
  if (!b.ok) return t;
  while (true) {
    if (!measure_round(b, t)) return t;
    const PointResult candidate = merge_rounds(t.results);
    const RuleEvaluation e = evaluate(good_end, candidate);
    const RuleEvaluation vs_bad = evaluate(bad_end, candidate);
    t.take_evaluation(e);
    const std::optional<StepAnswer> answer = judge_against_ends(e, vs_bad);
    if (answer) {
      t.answer = *answer;
      if (e.verdict == Verdict::kInconclusive) {
        t.reason = "better than the bad end: " + change_summary(vs_bad) +
                   "; against the good end " + e.reason;
      }
      return t;
    }
    if (t.rounds > settings_.max_repeat_rounds) {
      t.answer = StepAnswer::kSkip;
      t.reason += " (still inconclusive after " + std::to_string(t.rounds) + " rounds)";
      return t;
    }
    progress_ << "bisect: " << commit.substr(0, 10) << ": inconclusive ("
              << format_change(e.relative_change) << " "
              << format_interval(e.interval_lo, e.interval_hi) << "), measuring more\n";
  }
}

}  // namespace infergate

#include "gates/bisect/commit_judge.h"

#include <filesystem>

#include "common/report/metric_format.h"
#include "gates/ab/ab_session.h"
#include "gates/bisect/commit_measurement.h"
#include "gates/process/interrupt.h"
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
  if (settings_.paired) {
    judge_paired(b, t);
    return t;
  }
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

std::optional<RuleEvaluation> CommitJudge::compare_paired(const CommitBuild& baseline,
                                                          const CommitBuild& candidate,
                                                          const std::string& name,
                                                          TestedCommit& t) const {
  AbSettings a;
  a.workload_path = settings_.measure.workload_path;
  a.sets = settings_.measure.sets;
  a.baseline.binary = baseline.binary;
  a.candidate.binary = candidate.binary;
  a.design = settings_.design;
  a.design.min_pairs = settings_.measure.repetitions;
  a.out_dir = (std::filesystem::path(settings_.pairs_dir) / name).string();
  a.working_dir = settings_.measure.working_dir;
  a.compare.seed = settings_.seed;
  a.compare.allow_env_diff = true;  // two builds: their fingerprints differ by design
  a.progress = [&](const std::string& line) {
    progress_ << "bisect: " << name << ": " << line << "\n";
  };
  RuleSet rules;
  rules.rules = {rule_};
  AbOutcome o;
  try {
    o = run_ab(a, rules);
  } catch (const Interrupted&) {
    throw;
  } catch (const std::runtime_error& e) {
    t.answer = StepAnswer::kSkip;
    t.verdict = "run failed";
    t.reason = e.what();
    return std::nullopt;
  }
  t.measure_seconds += o.seconds;
  t.results.push_back((std::filesystem::path(a.out_dir) / "candidate.json").string());
  ++t.rounds;
  if (!o.failed_requests.empty() || o.comparison.evaluations.empty()) {
    t.answer = StepAnswer::kSkip;
    t.verdict = "run failed";
    t.reason = o.failed_requests.empty() ? "the rule judged nothing (" + name + ")"
                                         : o.failed_requests.front();
    return std::nullopt;
  }
  return o.comparison.evaluations.front();
}

void CommitJudge::judge_paired(const CommitBuild& b, TestedCommit& t) const {
  const std::string id = t.commit.substr(0, 10);
  // The ends were built before any step: these come from the cache.
  const CommitBuild good = builds_.build(settings_.good, progress_);
  const std::optional<RuleEvaluation> vs_good = compare_paired(good, b, id + "-vs-good", t);
  if (!vs_good) return;
  t.take_evaluation(*vs_good);
  if (const std::optional<StepAnswer> a = answer_for(vs_good->verdict)) {
    t.answer = *a;
    return;
  }
  const CommitBuild bad = builds_.build(settings_.bad, progress_);
  TestedCommit against_bad;
  const std::optional<RuleEvaluation> vs_bad = compare_paired(bad, b, id + "-vs-bad", against_bad);
  t.measure_seconds += against_bad.measure_seconds;
  t.results.insert(t.results.end(), against_bad.results.begin(), against_bad.results.end());
  t.rounds += against_bad.rounds;
  if (!vs_bad) {
    t.answer = StepAnswer::kSkip;
    t.reason = "inconclusive against the good end, and against the bad end " + against_bad.reason;
    return;
  }
  if (judge_against_ends(*vs_good, *vs_bad)) {
    t.answer = StepAnswer::kGood;
    t.reason = "better than the bad end: " + change_summary(*vs_bad) + "; against the good end " +
               vs_good->reason;
    return;
  }
  t.answer = StepAnswer::kSkip;
  t.reason += " (still inconclusive after " + std::to_string(vs_good->candidate_values.size()) +
              " pairs with the good end and " + std::to_string(vs_bad->candidate_values.size()) +
              " with the bad end)";
}

}  // namespace infergate

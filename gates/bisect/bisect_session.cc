#include "gates/bisect/bisect_session.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "common/io/json_file.h"
#include "common/report/metric_format.h"
#include "common/util/time_stamp.h"
#include "gates/bisect/bisect_log.h"
#include "gates/bisect/bisect_step.h"
#include "gates/bisect/bisect_worktree.h"
#include "gates/bisect/commit_judge.h"
#include "gates/process/interrupt.h"

namespace infergate {

namespace fs = std::filesystem;

namespace {

// A folder removed with everything in it when the bisect ends.
class ScopedDirectory {
 public:
  explicit ScopedDirectory(fs::path path) : path_(std::move(path)) {
    fs::create_directories(path_);
  }
  ~ScopedDirectory() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  ScopedDirectory(const ScopedDirectory&) = delete;
  ScopedDirectory& operator=(const ScopedDirectory&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string run_id() { return utc_compact_now() + "-" + std::to_string(getpid()); }

void check_range(const GitRepo& repo, const BisectSettings& s) {
  if (s.good == s.bad) throw BisectError("--good and --bad are the same commit " + s.good);
  if (!repo.is_ancestor(s.good, s.bad)) {
    throw BisectError("the good commit " + s.good.substr(0, 10) +
                      " is not an ancestor of the bad commit " + s.bad.substr(0, 10) +
                      ": bisect needs a good commit in the bad one's history");
  }
}

// Builds an end, or explains why the bisect cannot start.
CommitBuild build_end(const CommitJudge& judge, const std::string& commit, TestedCommit& t) {
  const CommitBuild b = judge.build(commit, t);
  if (!b.ok) {
    throw BisectError("the " + t.role + " " + commit.substr(0, 10) + " does not build: " + b.error +
                      (b.log_tail.empty() ? "" : "\n" + b.log_tail));
  }
  return b;
}

void measure_end(const CommitJudge& judge, const CommitBuild& b, TestedCommit& t) {
  if (!judge.measure_round(b, t)) {
    throw BisectError("the " + t.role + " " + t.commit.substr(0, 10) +
                      " cannot be measured: " + t.reason);
  }
}

// Both ends measured, with more rounds of both while their comparison is inconclusive.
RuleEvaluation compare_ends(const CommitJudge& judge, const BisectSettings& s, TestedCommit& good,
                            TestedCommit& bad, std::ostream& progress) {
  const CommitBuild good_build = build_end(judge, s.good, good);
  const CommitBuild bad_build = build_end(judge, s.bad, bad);
  if (s.paired) {
    const std::optional<RuleEvaluation> e =
        judge.compare_paired(good_build, bad_build, "ends", bad);
    if (!e) throw BisectError("the ends cannot be measured: " + bad.reason);
    good.results = {(fs::path(s.pairs_dir) / "ends" / "baseline.json").string()};
    good.rounds = 1;
    return *e;
  }
  while (true) {
    measure_end(judge, good_build, good);
    measure_end(judge, bad_build, bad);
    const RuleEvaluation e = judge.evaluate(merge_rounds(good.results), merge_rounds(bad.results));
    if (e.verdict != Verdict::kInconclusive || bad.rounds > s.max_repeat_rounds) return e;
    progress << "bisect: the ends are inconclusive so far (" << change_summary(e)
             << "), measuring both again\n";
  }
}

// The records the steps wrote, one per tested commit.
std::vector<TestedCommit> read_records(const fs::path& dir) {
  std::vector<TestedCommit> records;
  if (!fs::exists(dir)) return records;
  for (const fs::directory_entry& f : fs::directory_iterator(dir)) {
    if (f.path().extension() == ".json") {
      records.push_back(tested_commit_from_json(read_json_file(f.path().string())));
    }
  }
  return records;
}

// Parents before children, as `order` lists them; commits it lacks last.
void sort_topologically(std::vector<TestedCommit>& commits, const std::vector<std::string>& order) {
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < order.size(); ++i) index[order[i]] = i;
  std::stable_sort(commits.begin(), commits.end(),
                   [&](const TestedCommit& a, const TestedCommit& b) {
                     const size_t ia = index.count(a.commit) ? index[a.commit] : order.size();
                     const size_t ib = index.count(b.commit) ? index[b.commit] : order.size();
                     return ia < ib;
                   });
}

std::string found_message(const TestedCommit& t) {
  std::string m = "first bad commit: " + t.commit + " " + t.subject;
  if (std::isfinite(t.relative_change)) {
    m += "\n  " + t.verdict + " against the good end: " + format_change(t.relative_change) + " " +
         format_interval(t.interval_lo, t.interval_hi) + ", p = " + format_p_value(t.p_value);
  }
  return m;
}

// git bisect run over the commits strictly between the ends; the steps' records are added to
// `report`.
void walk(const GitRepo& repo, const BisectSettings& s, const TestedCommit& good,
          const TestedCommit& bad, const std::string& step_executable, const std::string& run_log,
          BisectReport& report, std::ostream& progress) {
  const ScopedDirectory run(fs::path(s.cache_dir) / "runs" / run_id());
  StepState state;
  state.settings = s;
  state.worktree = (run.path() / "worktree").string();
  state.records_dir = (run.path() / "steps").string();
  state.good_end_results = good.results;
  state.bad_end_results = bad.results;
  fs::create_directories(state.records_dir);
  const std::string state_path = (run.path() / "state.json").string();
  write_json_atomically(to_json(state), state_path);

  BisectWorktree worktree(repo, state.worktree, s.bad);
  worktree.start(s.bad, s.good);
  progress << "bisect: git bisect run in " << worktree.path() << " (log: " << run_log << ")\n";
  const ProcessResult r =
      worktree.run({step_executable, "bisect-step", "--state", state_path}, run_log);
  if (r.interrupted || interrupt_signal() != 0) throw Interrupted("bisect interrupted");
  report.git_bisect_log = worktree.log();
  for (TestedCommit& t : read_records(state.records_dir)) report.commits.push_back(std::move(t));
  const BisectConclusion c = parse_bisect_log(report.git_bisect_log);
  if (c.first_bad) {
    report.first_bad = *c.first_bad;
  } else if (!c.candidates.empty()) {
    report.status = BisectStatus::kOnlySkippedLeft;
    report.candidates = c.candidates;
  } else {
    throw BisectError("git bisect run " + r.describe() +
                      " without naming a first bad commit (log: " + run_log + ")");
  }
}

}  // namespace

BisectReport run_bisect(const GitRepo& repo, const BisectSettings& settings,
                        const std::string& step_executable, const std::string& run_log,
                        std::ostream& progress) {
  check_range(repo, settings);
  const CommitJudge judge(repo, settings, progress);
  TestedCommit good, bad;
  good.role = kRoleGoodEnd;
  bad.role = kRoleBadEnd;
  const RuleEvaluation ends = compare_ends(judge, settings, good, bad, progress);
  good.answer = StepAnswer::kGood;
  good.verdict = "baseline";
  good.reason = "the good end: every other commit is judged against it";
  good.values = ends.baseline_values;
  good.value = ends.baseline;
  bad.take_evaluation(ends);
  bad.answer = answer_for(ends.verdict).value_or(StepAnswer::kSkip);

  BisectReport report;
  report.settings = settings;
  report.commits = {good, bad};
  if (ends.verdict != Verdict::kRegressed) {
    report.status = BisectStatus::kEndsDoNotDiffer;
    report.message = ends_do_not_differ_message(ends);
    return report;
  }
  progress << "bisect: the ends differ: " << change_summary(ends) << "\n";
  const std::vector<std::string> order = repo.commits_between(settings.good, settings.bad);
  if (order.size() <= 2) {
    report.first_bad = settings.bad;  // nothing between the ends: no git bisect needed
  } else {
    walk(repo, settings, good, bad, step_executable, run_log, report, progress);
  }
  sort_topologically(report.commits, order);
  if (report.status == BisectStatus::kFound) {
    for (const TestedCommit& t : report.commits) {
      if (t.commit == report.first_bad) report.message = found_message(t);
    }
    if (report.message.empty()) report.message = "first bad commit: " + report.first_bad;
  } else {
    report.message = "only skipped commits are left: the first bad commit is one of";
    for (const std::string& c : report.candidates) report.message += " " + c.substr(0, 10);
  }
  return report;
}

}  // namespace infergate

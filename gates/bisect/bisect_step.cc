#include "gates/bisect/bisect_step.h"

#include <filesystem>

#include "common/io/json_file.h"
#include "gates/bisect/bisect_report.h"
#include "gates/bisect/commit_judge.h"
#include "gates/bisect/commit_measurement.h"
#include "gates/bisect/git_repo.h"

namespace infergate {

nlohmann::json to_json(const StepState& s) {
  return {{"settings", to_json(s.settings)},
          {"worktree", s.worktree},
          {"records_dir", s.records_dir},
          {"good_end_results", s.good_end_results},
          {"bad_end_results", s.bad_end_results}};
}

StepState step_state_from_json(const nlohmann::json& doc) {
  StepState s;
  s.settings = bisect_settings_from_json(doc.at("settings"));
  s.worktree = doc.at("worktree").get<std::string>();
  s.records_dir = doc.at("records_dir").get<std::string>();
  s.good_end_results = doc.at("good_end_results").get<std::vector<std::string>>();
  s.bad_end_results = doc.at("bad_end_results").get<std::vector<std::string>>();
  return s;
}

int run_bisect_step(const std::string& state_path, std::ostream& progress) {
  const StepState state = step_state_from_json(read_json_file(state_path));
  const GitRepo repo = GitRepo::open(state.settings.repo_dir);
  const std::string commit =
      run_git(state.worktree, {"rev-parse", "--verify", "BISECT_HEAD^{commit}"});
  const CommitJudge judge(repo, state.settings, progress);
  const TestedCommit t = judge.judge(commit, merge_rounds(state.good_end_results),
                                     merge_rounds(state.bad_end_results));
  write_json_atomically(to_json(t),
                        (std::filesystem::path(state.records_dir) / (commit + ".json")).string());
  progress << "bisect: " << tested_commit_line(t, judge.rule().metric) << "\n";
  return int(t.answer);
}

}  // namespace infergate

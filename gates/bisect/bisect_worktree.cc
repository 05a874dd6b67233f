#include "gates/bisect/bisect_worktree.h"

#include <iostream>

#include "gates/process/interrupt.h"

namespace infergate {

BisectWorktree::BisectWorktree(const GitRepo& repo, std::string path, const std::string& commit)
    : repo_(repo), path_(std::move(path)) {
  repo_.add_worktree(path_, commit, /*checkout=*/false);
}

BisectWorktree::~BisectWorktree() {
  const InterruptShield shield;
  try {
    if (started_) GitRepo::git_in(path_, {"bisect", "reset", "--quiet"});
    repo_.remove_worktree(path_);
  } catch (const std::exception& e) {
    std::cerr << "bisect: warning: " << e.what() << "\n";
  }
}

void BisectWorktree::start(const std::string& bad, const std::string& good) {
  started_ = true;
  run_git(path_, {"bisect", "start", "--no-checkout", bad, good});
}

ProcessResult BisectWorktree::run(const std::vector<std::string>& argv,
                                  const std::string& log_file) {
  ProcessSpec spec;
  spec.argv = {"git", "-C", path_, "bisect", "run"};
  spec.argv.insert(spec.argv.end(), argv.begin(), argv.end());
  spec.working_dir = path_;
  spec.out = Output::kFile;
  spec.err = Output::kInherit;
  spec.log_file = log_file;
  return run_process(spec);
}

std::string BisectWorktree::log() const { return run_git(path_, {"bisect", "log"}); }

}  // namespace infergate

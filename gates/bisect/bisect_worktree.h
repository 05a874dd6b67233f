// The temporary linked worktree `git bisect` itself runs in, so the user's checkout, index and
// any bisect of their own are never touched. Its files are never checked out (`git bisect
// --no-checkout`: the commit under test is BISECT_HEAD, and each step builds it in its own cached
// worktree). The destructor ends the bisect and removes the worktree, however the bisect ends.
#pragma once

#include <string>
#include <vector>

#include "gates/bisect/git_repo.h"
#include "gates/process/subprocess.h"

namespace infergate {

class BisectWorktree {
 public:
  // A worktree at `path` (which must not exist), detached at `commit`.
  BisectWorktree(const GitRepo& repo, std::string path, const std::string& commit);
  // `git bisect reset`, then the worktree removed; never throws.
  ~BisectWorktree();
  BisectWorktree(const BisectWorktree&) = delete;
  BisectWorktree& operator=(const BisectWorktree&) = delete;

  const std::string& path() const { return path_; }

  // git bisect start --no-checkout BAD GOOD
  void start(const std::string& bad, const std::string& good);
  // git bisect run ARGV...: its output appended to `log_file`, the commands' stderr passed
  // through.
  ProcessResult run(const std::vector<std::string>& argv, const std::string& log_file);
  // git bisect log
  std::string log() const;

 private:
  const GitRepo& repo_;
  std::string path_;
  bool started_ = false;
};

}  // namespace infergate

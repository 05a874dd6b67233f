// Builds of single commits, each in its own linked worktree and build folder under a cache
// (docs/bisect.md): <repo cache>/commits/<full hash>/{src, build, build.log, build.json}. A build
// that finished is marked (build.json, with the command that made it) and reused by every later
// bisect; a failed one is retried, incrementally, the next time.
#pragma once

#include <ostream>
#include <string>

#include "gates/bisect/git_repo.h"

namespace infergate {

// The default --build-cmd: a Release build of the `infergate` target alone.
extern const char* const kDefaultBuildCommand;
// The default --binary, relative to the build folder.
extern const char* const kDefaultBinary;

struct BuildSpec {
  // Run as `sh -c COMMAND` in the commit's worktree, with SOURCE_DIR (the worktree), BUILD_DIR
  // (its build folder) and INFERGATE_BISECT_COMMIT (the full hash) in the environment.
  std::string command = kDefaultBuildCommand;
  std::string binary = kDefaultBinary;  // what the build makes, relative to BUILD_DIR
};

struct CommitBuild {
  std::string commit;
  std::string dir;                                      // the commit's cache folder
  std::string source_dir, build_dir, log_path, binary;  // absolute
  bool ok = false;
  bool reused = false;   // an earlier build by the same command and binary was there
  double seconds = 0;    // spent building now
  std::string error;     // why not ok, naming the log
  std::string log_tail;  // the log's last lines when the build failed
};

// $XDG_CACHE_HOME/infergate/bisect, else $HOME/.cache/infergate/bisect.
std::string default_cache_dir();
// <cache_dir>/<name of the main worktree's folder>-<hash of the shared .git folder>: one
// repository's builds, whichever of its worktrees a bisect starts from.
std::string repo_cache_dir(const std::string& cache_dir, const GitRepo& repo);

class CommitBuildCache {
 public:
  CommitBuildCache(const GitRepo& repo, std::string repo_cache_dir, BuildSpec spec);

  // <repo cache>/commits/<commit>
  std::string commit_dir(const std::string& commit) const;
  // The commit built in its own worktree, or the earlier build of it when one is marked done.
  // Waits for another bisect building the same commit. Progress lines go to `progress`.
  CommitBuild build(const std::string& commit, std::ostream& progress) const;

 private:
  void prepare_worktree(const CommitBuild& b) const;

  const GitRepo& repo_;
  std::string root_;
  BuildSpec spec_;
};

}  // namespace infergate

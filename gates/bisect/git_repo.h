// The git repository being bisected, driven through the `git` program (run_process: exact argv,
// never a shell). Nothing here changes the user's working tree or index: the only writes are
// linked worktrees (`git worktree add`) elsewhere and their removal.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "gates/process/subprocess.h"

namespace infergate {

// A git command that failed; the message holds the command and what git said.
class GitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class GitRepo {
 public:
  // The repository whose work tree contains `dir`; throws GitError when there is none.
  static GitRepo open(const std::string& dir);

  // The top of the work tree containing `dir` (absolute).
  const std::string& toplevel() const { return toplevel_; }
  // The repository's shared .git directory (absolute): the same from every linked worktree.
  const std::string& common_dir() const { return common_dir_; }

  // `rev` (a hash, branch, tag, HEAD~3, ...) as a full commit hash; GitError names `rev`.
  std::string resolve_commit(const std::string& rev) const;
  // The first line of the commit message.
  std::string subject(const std::string& commit) const;
  bool is_ancestor(const std::string& ancestor, const std::string& descendant) const;
  // `good`, then every commit reachable from `bad` but not from `good`, oldest first in
  // topological order (parents before children): the order bisect reports list commits in.
  std::vector<std::string> commits_between(const std::string& good, const std::string& bad) const;

  // A linked worktree at `path`, detached at `commit`; without `checkout` the files are not
  // written (enough for `git bisect --no-checkout`).
  void add_worktree(const std::string& path, const std::string& commit, bool checkout) const;
  // Removes the linked worktree at `path` (even with changes in it, or already deleted) and
  // git's record of it.
  void remove_worktree(const std::string& path) const;

  // `git -C <toplevel> args...`: stdout on success (trailing newline removed), else GitError.
  std::string git(const std::vector<std::string>& args) const;
  // The same with `-C dir`, as a result to inspect rather than an exception.
  static ProcessResult git_in(const std::string& dir, const std::vector<std::string>& args);

 private:
  GitRepo(std::string toplevel, std::string common_dir);
  std::string toplevel_, common_dir_;
};

// `git -C dir args...`'s stdout, trailing newline removed; GitError on failure.
std::string run_git(const std::string& dir, const std::vector<std::string>& args);

}  // namespace infergate

#include "gates/bisect/git_repo.h"

#include <filesystem>
#include <sstream>

namespace infergate {

namespace {

std::string chomp(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

std::vector<std::string> git_argv(const std::string& dir, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"git", "-C", dir};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

}  // namespace

ProcessResult GitRepo::git_in(const std::string& dir, const std::vector<std::string>& args) {
  ProcessSpec spec;
  spec.argv = git_argv(dir, args);
  spec.set_env["GIT_TERMINAL_PROMPT"] = "0";
  spec.set_env["LC_ALL"] = "C";  // messages parsed below are git's English ones
  return run_process(spec);
}

std::string run_git(const std::string& dir, const std::vector<std::string>& args) {
  const ProcessResult r = GitRepo::git_in(dir, args);
  if (!r.ok()) {
    throw GitError(describe_command(git_argv(dir, args)) + " " + r.describe() +
                   (r.err.empty() ? "" : ": " + chomp(r.err)));
  }
  return chomp(r.out);
}

GitRepo::GitRepo(std::string toplevel, std::string common_dir)
    : toplevel_(std::move(toplevel)), common_dir_(std::move(common_dir)) {}

GitRepo GitRepo::open(const std::string& dir) {
  const ProcessResult r = git_in(dir, {"rev-parse", "--show-toplevel"});
  if (!r.ok() || chomp(r.out).empty()) {
    throw GitError(dir + " is not inside a git work tree (use --repo DIR)" +
                   (r.err.empty() ? "" : ": " + chomp(r.err)));
  }
  const std::string toplevel = chomp(r.out);
  std::filesystem::path common = run_git(toplevel, {"rev-parse", "--git-common-dir"});
  if (common.is_relative()) common = std::filesystem::path(toplevel) / common;
  return GitRepo(toplevel, std::filesystem::weakly_canonical(common).string());
}

std::string GitRepo::git(const std::vector<std::string>& args) const {
  return run_git(toplevel_, args);
}

std::string GitRepo::resolve_commit(const std::string& rev) const {
  const ProcessResult r = git_in(
      toplevel_, {"rev-parse", "--verify", "--quiet", "--end-of-options", rev + "^{commit}"});
  if (!r.ok()) throw GitError("'" + rev + "' is not a commit in " + toplevel_);
  return chomp(r.out);
}

std::string GitRepo::subject(const std::string& commit) const {
  return git({"log", "-1", "--format=%s", commit, "--"});
}

bool GitRepo::is_ancestor(const std::string& ancestor, const std::string& descendant) const {
  const ProcessResult r = git_in(toplevel_, {"merge-base", "--is-ancestor", ancestor, descendant});
  if (r.exit_code != 0 && r.exit_code != 1) {
    throw GitError("git merge-base --is-ancestor " + r.describe() + ": " + chomp(r.err));
  }
  return r.exit_code == 0;
}

std::vector<std::string> GitRepo::commits_between(const std::string& good,
                                                  const std::string& bad) const {
  std::vector<std::string> commits = {good};
  std::istringstream lines(git({"rev-list", "--topo-order", "--reverse", bad, "^" + good, "--"}));
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) commits.push_back(line);
  }
  return commits;
}

void GitRepo::add_worktree(const std::string& path, const std::string& commit,
                           bool checkout) const {
  std::vector<std::string> args = {"worktree", "add", "--detach", "--quiet"};
  if (!checkout) args.push_back("--no-checkout");
  args.insert(args.end(), {path, commit});
  git(args);
}

void GitRepo::remove_worktree(const std::string& path) const {
  const ProcessResult r = git_in(toplevel_, {"worktree", "remove", "--force", "--force", path});
  std::error_code ignored;
  std::filesystem::remove_all(path, ignored);  // what git left, e.g. ignored build files
  if (!r.ok()) {
    throw GitError("cannot remove the worktree " + path + ": " + chomp(r.err));
  }
}

}  // namespace infergate

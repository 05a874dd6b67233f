#include "gates/bisect/commit_build_cache.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>

#include "common/io/json_file.h"
#include "common/util/time_stamp.h"
#include "gates/bisect/content_hash.h"
#include "gates/bisect/file_lock.h"
#include "gates/process/interrupt.h"
#include "gates/process/subprocess.h"

namespace infergate {

namespace fs = std::filesystem;

// With ccache on PATH, every commit's compiles go through it with paths taken relative to the
// commits folder: each commit's src/ and build/ sit at the same relative place, so a file that
// did not change between two commits is a cache hit in the second (docs/bisect.md).
const char* const kDefaultBuildCommand =
    "launcher=; if command -v ccache >/dev/null; then "
    "export CCACHE_BASEDIR=\"$(dirname \"$(dirname \"$SOURCE_DIR\")\")\" CCACHE_NOHASHDIR=true "
    "CCACHE_SLOPPINESS=file_macro; "
    "launcher='-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache'; fi; "
    "cmake -S \"$SOURCE_DIR\" -B \"$BUILD_DIR\" -DCMAKE_BUILD_TYPE=Release "
    "-DINFERGATE_BUILD_TESTS=OFF -DINFERGATE_BUILD_BENCH=OFF $launcher && "
    "cmake --build \"$BUILD_DIR\" -j\"$(nproc)\" --target infergate";
const char* const kDefaultBinary = "cli/infergate";

namespace {

std::string short_hash(const std::string& commit) { return commit.substr(0, 10); }

std::string last_lines(const std::string& path, size_t n) {
  std::ifstream in(path);
  std::deque<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    lines.push_back(line);
    if (lines.size() > n) lines.pop_front();
  }
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

// The marker of a finished build, when it was made by `spec` and its binary is still there.
bool reusable(const CommitBuild& b, const BuildSpec& spec) {
  const fs::path marker = fs::path(b.dir) / "build.json";
  if (!fs::exists(marker)) return false;
  try {
    const nlohmann::json m = read_json_file(marker.string());
    return m.value("build_command", "") == spec.command && m.value("binary", "") == spec.binary &&
           m.value("commit", "") == b.commit && access(b.binary.c_str(), X_OK) == 0;
  } catch (const std::exception&) {
    return false;
  }
}

// A fresh worktree has no submodules checked out: they are part of what gets built.
ProcessResult update_submodules(const CommitBuild& b) {
  if (!fs::exists(fs::path(b.source_dir) / ".gitmodules")) {
    ProcessResult none;
    none.exit_code = 0;
    return none;
  }
  ProcessSpec git;
  git.argv = {"git", "-C", b.source_dir, "submodule", "update", "--init", "--recursive"};
  git.out = Output::kFile;
  git.err = Output::kSameAsStdout;
  git.log_file = b.log_path;
  return run_process(git);
}

}  // namespace

std::string default_cache_dir() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg != nullptr && *xdg == '/') return (fs::path(xdg) / "infergate" / "bisect").string();
  const char* home = std::getenv("HOME");
  if (home == nullptr || *home == '\0') {
    throw std::runtime_error("neither XDG_CACHE_HOME nor HOME is set: pass --cache-dir");
  }
  return (fs::path(home) / ".cache" / "infergate" / "bisect").string();
}

std::string repo_cache_dir(const std::string& cache_dir, const GitRepo& repo) {
  // The main worktree's folder name (the common dir is <it>/.git), whichever worktree we are in.
  const fs::path common = repo.common_dir();
  const std::string name =
      (common.filename() == ".git" ? common.parent_path() : common).filename().string();
  return (fs::absolute(cache_dir) / (name + "-" + content_hash(repo.common_dir()))).string();
}

CommitBuildCache::CommitBuildCache(const GitRepo& repo, std::string repo_cache_dir, BuildSpec spec)
    : repo_(repo), root_(std::move(repo_cache_dir)), spec_(std::move(spec)) {}

std::string CommitBuildCache::commit_dir(const std::string& commit) const {
  return (fs::path(root_) / "commits" / commit).string();
}

void CommitBuildCache::prepare_worktree(const CommitBuild& b) const {
  if (fs::exists(fs::path(b.source_dir) / ".git")) {
    const ProcessResult head = GitRepo::git_in(b.source_dir, {"rev-parse", "HEAD"});
    if (head.ok() && head.out.substr(0, b.commit.size()) == b.commit) return;
  }
  if (fs::exists(b.source_dir)) {  // half made, or not ours any more: start again
    try {
      repo_.remove_worktree(b.source_dir);
    } catch (const GitError&) {
      fs::remove_all(b.source_dir);
    }
  }
  repo_.add_worktree(b.source_dir, b.commit, /*checkout=*/true);
}

CommitBuild CommitBuildCache::build(const std::string& commit, std::ostream& progress) const {
  CommitBuild b;
  b.commit = commit;
  b.dir = commit_dir(commit);
  b.source_dir = (fs::path(b.dir) / "src").string();
  b.build_dir = (fs::path(b.dir) / "build").string();
  b.log_path = (fs::path(b.dir) / "build.log").string();
  b.binary = (fs::path(b.build_dir) / spec_.binary).lexically_normal().string();
  fs::create_directories(b.dir);
  const FileLock lock((fs::path(b.dir) / "lock").string());
  if (reusable(b, spec_)) {
    b.ok = b.reused = true;
    progress << "bisect: " << short_hash(commit) << ": reusing its build (" << b.build_dir << ")\n";
    return b;
  }
  // A new build: measurements of an earlier one no longer describe this binary.
  fs::remove(fs::path(b.dir) / "build.json");
  fs::remove_all(fs::path(b.dir) / "measurements");
  prepare_worktree(b);
  fs::create_directories(b.build_dir);
  write_text_atomically("# infergate bisect: building " + commit + " at " + utc_iso8601_now() +
                            "\n# sh -c " + spec_.command + "\n# SOURCE_DIR=" + b.source_dir +
                            "\n# BUILD_DIR=" + b.build_dir + "\n",
                        b.log_path);
  progress << "bisect: " << short_hash(commit) << ": building (log: " << b.log_path << ")\n";
  const auto start = std::chrono::steady_clock::now();
  ProcessResult r = update_submodules(b);
  ProcessSpec sh;
  sh.argv = {"sh", "-c", spec_.command};
  sh.working_dir = b.source_dir;
  sh.set_env = {{"SOURCE_DIR", b.source_dir},
                {"BUILD_DIR", b.build_dir},
                {"INFERGATE_BISECT_COMMIT", commit}};
  sh.out = Output::kFile;
  sh.err = Output::kSameAsStdout;
  sh.log_file = b.log_path;
  if (r.ok()) r = run_process(sh);
  b.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (r.interrupted) throw Interrupted("interrupted while building " + commit);
  if (!r.ok()) {
    b.error = "the build command " + r.describe() + " (log: " + b.log_path + ")";
  } else if (access(b.binary.c_str(), X_OK) != 0) {
    b.error = "the build succeeded but made no executable " + b.binary +
              " (see --binary; log: " + b.log_path + ")";
  }
  if (!b.error.empty()) {
    b.log_tail = last_lines(b.log_path, 12);
    return b;
  }
  write_json_atomically({{"commit", commit},
                         {"build_command", spec_.command},
                         {"binary", spec_.binary},
                         {"built_at", utc_iso8601_now()},
                         {"seconds", b.seconds}},
                        (fs::path(b.dir) / "build.json").string());
  b.ok = true;
  return b;
}

}  // namespace infergate

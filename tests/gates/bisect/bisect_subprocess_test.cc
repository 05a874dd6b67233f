// Running programs without a shell: arguments arrive exactly as given, output is captured or
// sent to a file, the working directory and environment are the child's own, and a program
// that cannot start is reported by name.
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gates/bisect/content_hash.h"
#include "gates/process/subprocess.h"

using namespace infergate;
namespace fs = std::filesystem;

TEST_CASE("arguments reach the program verbatim: no shell interprets them") {
  ProcessSpec spec;
  spec.argv = {"printf", "%s|", "a b", "$(echo no)", "'quoted'", ";", "*"};
  const ProcessResult r = run_process(spec);
  CHECK(r.ok());
  CHECK(r.out == "a b|$(echo no)|'quoted'|;|*|");
}

TEST_CASE("exit codes and stderr come back") {
  ProcessSpec spec;
  spec.argv = {"sh", "-c", "echo oops >&2; exit 125"};
  const ProcessResult r = run_process(spec);
  CHECK(r.exit_code == 125);
  CHECK(r.err == "oops\n");
  CHECK(r.describe() == "exited with 125");
}

TEST_CASE("the child runs in its own directory with the environment it was given") {
  const fs::path dir = fs::temp_directory_path() / "infergate-bisect-subprocess-test";
  fs::create_directories(dir);
  ProcessSpec spec;
  spec.argv = {"sh", "-c", "pwd; echo \"$BUILD_DIR\"; echo \"${GIT_DIR-unset}\""};
  spec.working_dir = dir.string();
  spec.set_env["BUILD_DIR"] = "/some/build";
  setenv("GIT_DIR", "/elsewhere/.git", 1);
  const ProcessResult r = run_process(spec);
  unsetenv("GIT_DIR");
  CHECK(r.out == fs::canonical(dir).string() + "\n/some/build\nunset\n");
  fs::remove_all(dir);
}

TEST_CASE("output can be appended to a log file, stderr with it") {
  const fs::path log = fs::temp_directory_path() / "infergate-bisect-subprocess-test.log";
  fs::remove(log);
  ProcessSpec spec;
  spec.argv = {"sh", "-c", "echo out; echo err >&2"};
  spec.out = Output::kFile;
  spec.err = Output::kSameAsStdout;
  spec.log_file = log.string();
  CHECK(run_process(spec).ok());
  CHECK(run_process(spec).ok());
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str() == "out\nerr\nout\nerr\n");
  fs::remove(log);
}

TEST_CASE("a program that does not exist is reported by name") {
  ProcessSpec spec;
  spec.argv = {"/nonexistent/infergate-build"};
  CHECK_THROWS_WITH(run_process(spec), Catch::Matchers::Contains("/nonexistent/infergate-build"));
}

TEST_CASE("the child has a process group of its own and /dev/null as stdin") {
  ProcessSpec spec;
  // /proc/PID/stat: field 1 the pid, field 5 the process group ("(sh)" holds no space).
  spec.argv = {"sh", "-c",
               "read -r line; echo \"read $?\"; set -- $(cut -d' ' -f1,5 /proc/$$/stat); "
               "[ \"$1\" = \"$2\" ] && echo own-group"};
  const ProcessResult r = run_process(spec);
  CHECK(r.ok());
  CHECK(r.out == "read 1\nown-group\n");
}

TEST_CASE("a program killed by a signal is described by the signal") {
  ProcessSpec spec;
  spec.argv = {"sh", "-c", "kill -9 $$"};
  const ProcessResult r = run_process(spec);
  CHECK(r.exit_code == -1);
  CHECK(r.term_signal == 9);
  CHECK(r.describe() == "was killed by signal 9");
}

TEST_CASE("large output on both streams is captured whole") {
  ProcessSpec spec;
  // More than a pipe holds on each stream, so neither may wait for the other to be read.
  spec.argv = {"sh", "-c",
               "i=0; while [ $i -lt 20000 ]; do echo 0123456789; echo abc >&2; "
               "i=$((i+1)); done"};
  const ProcessResult r = run_process(spec);
  CHECK(r.ok());
  CHECK(r.out.size() == 20000u * 11);
  CHECK(r.err.size() == 20000u * 4);
}

TEST_CASE("a missing working directory or a program not in PATH is reported by name") {
  ProcessSpec in_missing_dir;
  in_missing_dir.argv = {"true"};
  in_missing_dir.working_dir = "/nonexistent/infergate-worktree";
  CHECK_THROWS_WITH(
      run_process(in_missing_dir),
      Catch::Matchers::Contains("cannot run true in /nonexistent/infergate-worktree") &&
          Catch::Matchers::Contains("No such file or directory"));
  // The child that could not change directory is reaped, not left a zombie.
  errno = 0;
  CHECK(waitpid(-1, nullptr, WNOHANG) == -1);
  CHECK(errno == ECHILD);
  ProcessSpec not_in_path;
  not_in_path.argv = {"infergate-no-such-program"};
  CHECK_THROWS_AS(run_process(not_in_path), ProcessError);
  CHECK_THROWS_WITH(run_process(not_in_path),
                    Catch::Matchers::Contains("infergate-no-such-program"));
}

TEST_CASE("content hashes are 16 hex digits of FNV-1a 64") {
  CHECK(content_hash("") == "cbf29ce484222325");
  CHECK(content_hash("a") == "af63dc4c8601ec8c");
  CHECK(content_hash("a") != content_hash("b"));
}

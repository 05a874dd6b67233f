// Running programs without a shell: arguments arrive exactly as given, output is captured or
// sent to a file, the working directory and environment are the child's own, and a program
// that cannot start is reported by name.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gates/bisect/content_hash.h"
#include "gates/bisect/subprocess.h"

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

TEST_CASE("content hashes are 16 hex digits of FNV-1a 64") {
  CHECK(content_hash("") == "cbf29ce484222325");
  CHECK(content_hash("a") == "af63dc4c8601ec8c");
  CHECK(content_hash("a") != content_hash("b"));
}

// Atomic writes: a writer killed mid-write leaves only a temporary file, the next write of that
// output removes it (and nothing else), and an unusable output is found before any work.
#include "common/io/atomic_file.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "common/io/json_file.h"
#include "tests/temp_dir.h"

namespace infergate {
namespace {

namespace fs = std::filesystem;

struct TempDir : testing::TempDir {
  TempDir() : testing::TempDir("infergate-atomic") {}
};

void touch(const std::string& path) { std::ofstream(path) << "partial"; }

// Writes part of `path` through AtomicFile in a child, which then dies by SIGKILL mid-write as
// `kill -9` would leave it; returns the child's (now dead) pid.
pid_t kill_writer_mid_write(const std::string& path) {
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    AtomicFile file(path);
    file.write("{\"half\": ");
    ::raise(SIGKILL);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFSIGNALED(status));
  return child;
}

TEST_CASE("a writer killed mid-write leaves its temporary, which the next write removes",
          "[atomic_file]") {
  TempDir dir;
  write_text_atomically("old\n", dir.file("r.json"));
  const pid_t dead = kill_writer_mid_write(dir.file("r.json"));
  std::set<std::string> names = dir.names();
  REQUIRE(names.size() == 2);
  const std::string temp = *std::next(names.begin());
  CHECK(temp.rfind("r.json.tmp-" + std::to_string(dead) + "-", 0) == 0);
  std::ifstream in(dir.file("r.json"));
  CHECK(std::string(std::istreambuf_iterator<char>(in), {}) == "old\n");  // never partial

  write_text_atomically("new\n", dir.file("r.json"));
  CHECK(dir.names() == std::set<std::string>{"r.json"});
}

TEST_CASE("only stale temporaries of the same output are removed", "[atomic_file]") {
  TempDir dir;
  const pid_t dead = kill_writer_mid_write(dir.file("r.json"));
  const std::string dead_temp = "r.json.tmp-" + std::to_string(dead) + "-";
  // A live writer: this process's parent stays alive for the whole test.
  const std::string live = "r.json.tmp-" + std::to_string(::getppid()) + "-Ab12Cd";
  const std::string old_style_fresh = "r.json.tmp-Zx81Qa";
  const std::string old_style_stale = "r.json.tmp-Yy72Pb";
  const std::string other_output = "other.json.tmp-" + std::to_string(dead) + "-Ab12Cd";
  const std::string not_ours = "r.json.tmp-notours";
  for (const std::string& n : {live, old_style_fresh, old_style_stale, other_output, not_ours,
                               std::string("r.json.bak")}) {
    touch(dir.file(n));
  }
  // Untouched for two hours: its writer is gone even though no pid says so.
  fs::last_write_time(dir.file(old_style_stale),
                      fs::file_time_type::clock::now() - std::chrono::hours(2));

  CHECK(remove_stale_temporaries(dir.file("r.json")) == 2);
  const std::set<std::string> left = dir.names();
  CHECK(left == std::set<std::string>{live, old_style_fresh, other_output, not_ours, "r.json.bak"});
  for (const std::string& n : left) CHECK(n.rfind(dead_temp, 0) != 0);
}

TEST_CASE("an output that is a directory or a device is refused before any work", "[atomic_file]") {
  TempDir dir;
  fs::create_directory(dir.file("out"));
  CHECK_THROWS_WITH(check_writable(dir.file("out")),
                    dir.file("out") + ": cannot write an output file here: it is a directory");
  CHECK_THROWS_WITH(check_writable("/dev/null"),
                    "/dev/null: cannot write an output file here: it is a character device");
  REQUIRE(::mkfifo(dir.file("fifo").c_str(), 0600) == 0);
  CHECK_THROWS_WITH(write_text_atomically("x", dir.file("fifo")),
                    Catch::Contains("it is a named pipe (FIFO)"));
  touch(dir.file("file"));
  CHECK_THROWS_WITH(check_writable(dir.file("file/r.json")),
                    Catch::StartsWith(dir.file("file/r.json") + ": cannot create its directory " +
                                      dir.file("file") + ": "));
  CHECK_THROWS_WITH(check_writable("/proc/infergate-results.json"),
                    Catch::StartsWith("/proc/infergate-results.json: cannot create a temporary "
                                      "file beside it: "));
  CHECK(dir.names() == std::set<std::string>{"out", "fifo", "file"});
}

TEST_CASE("a writable output is checked without leaving anything but its directory",
          "[atomic_file]") {
  TempDir dir;
  check_writable(dir.file("a/b/r.json"));
  CHECK(fs::is_directory(dir.file("a/b")));
  CHECK(fs::is_empty(dir.file("a/b")));
  write_text_atomically("x", dir.file("a/b/r.json"));
  check_writable(dir.file("a/b/r.json"));  // an existing results file may be replaced
  CHECK(dir.names() == std::set<std::string>{"a"});
}

}  // namespace
}  // namespace infergate

// Reading files a user names: only regular files, whole-file reads bounded, JSON nesting bounded,
// and every refusal names the file and what it is.
#include "common/io/input_file.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "common/io/json_file.h"
#include "common/io/json_text.h"
#include "tests/temp_dir.h"

namespace infergate {
namespace {

namespace fs = std::filesystem;

struct TempDir : testing::TempDir {
  TempDir() : testing::TempDir("infergate-input") {}
};

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

// The message read_regular_file throws for `path`, from a child process that is killed after
// 10 s: a regression that blocks (open() of a FIFO) fails the test instead of hanging it.
std::string refusal_within_bound(const std::string& path) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::close(fds[0]);
    std::string message = "read without error";
    try {
      read_regular_file(path, 1 << 20);
    } catch (const InputFileError& e) {
      message = e.what();
    }
    (void)!::write(fds[1], message.data(), message.size());
    ::_exit(0);
  }
  ::close(fds[1]);
  int status = 0;
  bool exited = false;
  for (int i = 0; i < 1000 && !exited; ++i) {  // at most 10 s
    exited = ::waitpid(child, &status, WNOHANG) == child;
    if (!exited) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!exited) {
    ::kill(child, SIGKILL);
    ::waitpid(child, &status, 0);
    ::close(fds[0]);
    return "blocked for 10 s";
  }
  std::string message(4096, '\0');
  const ssize_t n = ::read(fds[0], message.data(), message.size());
  ::close(fds[0]);
  message.resize(n > 0 ? size_t(n) : 0);
  return message;
}

TEST_CASE("a FIFO is refused at once, not opened and waited on", "[input_file]") {
  TempDir dir;
  REQUIRE(::mkfifo(dir.file("results.json").c_str(), 0600) == 0);
  CHECK(refusal_within_bound(dir.file("results.json")) ==
        dir.file("results.json") + ": is a named pipe (FIFO), expected a regular file");
}

TEST_CASE("devices and directories are refused by what they are", "[input_file]") {
  TempDir dir;
  CHECK(refusal_within_bound("/dev/zero") ==
        "/dev/zero: is a character device, expected a "
        "regular file");
  CHECK(refusal_within_bound(dir.file("")) ==
        dir.file("") + ": is a directory, expected a regular file");
  CHECK(refusal_within_bound(dir.file("missing.json")) ==
        dir.file("missing.json") + ": no such file");
  CHECK(non_regular_kind("/dev/null") == "a character device");
  CHECK(non_regular_kind(dir.file("missing.json")).empty());
}

TEST_CASE("a whole-file read stops at its limit and names it", "[input_file]") {
  TempDir dir;
  write_text(dir.file("f"), std::string(1000, 'x'));
  CHECK(read_regular_file(dir.file("f"), 1000) == std::string(1000, 'x'));
  CHECK_THROWS_WITH(read_regular_file(dir.file("f"), 999),
                    dir.file("f") + ": is larger than the 0 MiB (999 bytes) limit for this file");
  // /proc files say size 0 and still have content: the limit holds while reading.
  CHECK(read_regular_file("/proc/self/status", 1 << 20).find("Pid:") != std::string::npos);
  CHECK_THROWS_WITH(read_regular_file("/proc/self/status", 10),
                    Catch::Contains("limit for this file"));
}

TEST_CASE("results readers refuse /dev/zero, FIFOs and directories by name", "[input_file]") {
  TempDir dir;
  CHECK_THROWS_WITH(read_json_file("/dev/zero"),
                    "/dev/zero: is a character device, expected a regular file");
  CHECK_THROWS_WITH(read_json_file(dir.file("")),
                    dir.file("") + ": is a directory, expected a regular file");
  REQUIRE(::mkfifo(dir.file("pipe.json").c_str(), 0600) == 0);
  CHECK_THROWS_WITH(read_json_file(dir.file("pipe.json")), Catch::Contains("named pipe (FIFO)"));
}

TEST_CASE("100000 nested arrays are refused before parsing with the position", "[input_file]") {
  TempDir dir;
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  write_text(dir.file("deep.json"), R"({"manifest": {"host": )" + deep + "}}");
  try {
    read_json_file(dir.file("deep.json"));
    FAIL("parsed 100000 nested arrays");
  } catch (const JsonFileError& e) {
    CHECK(std::string(e.what()) == dir.file("deep.json") +
                                       ": not JSON at line 1, column 149 (byte offset 148): nests "
                                       "deeper than the limit of 128 levels");
  }
  // Exactly the limit parses; brackets inside strings and comments do not count.
  const std::string limit = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  CHECK(parse_json_text(limit).is_array());
  CHECK(parse_json_text("[\"" + std::string(500, '[') + "\\\"\"]").size() == 1);
  CHECK(parse_json_text("// " + std::string(500, '{') + "\n[1]", true).size() == 1);
}

TEST_CASE("a syntax error gives the line, column and byte offset", "[input_file]") {
  TempDir dir;
  write_text(dir.file("bad.json"), "{\n  \"a\": 1,\n  \"b\": ]\n}");
  CHECK_THROWS_WITH(read_json_file(dir.file("bad.json")),
                    Catch::StartsWith(dir.file("bad.json") +
                                      ": not JSON at line 3, column 8 (byte offset 19): syntax "
                                      "error while parsing value"));
}

}  // namespace
}  // namespace infergate

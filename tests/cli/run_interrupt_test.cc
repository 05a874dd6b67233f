// Ctrl-C stops `infergate run` at once whatever it is waiting for (docs/workload-schema.md,
// "Stopping a run"): the real binary, on schedules with an hour or more before the next send (an
// open loop at 0.0001 req/s, a ramp's next stage, a trace's gap in each format, a session's think
// time, a closed ramp's next user), gets SIGINT a second in and must exit 130 within seconds with
// its results written and marked incomplete.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "../temp_dir.h"

namespace {

using Clock = std::chrono::steady_clock;

const std::string kBinary = INFERGATE_EXECUTABLE;

// Generous on a busy 2-core machine: before the fix these runs waited an hour or more.
constexpr auto kStopWithin = std::chrono::seconds(15);

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

pid_t start_run(const std::string& workload, const std::string& out, const std::string& log) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, STDOUT_FILENO);
    ::dup2(fd, STDERR_FILENO);
    ::execl(kBinary.c_str(), kBinary.c_str(), "run", workload.c_str(), "--quiet", "--out",
            out.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return pid;
}

// The exit status, or -1 when the process has not ended within `limit` (it is then killed).
int wait_exit(pid_t pid, Clock::duration limit) {
  const Clock::time_point deadline = Clock::now() + limit;
  for (;;) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid)
      return WIFEXITED(status) ? WEXITSTATUS(status) : -2;
    if (Clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Runs `workload` (a JSON document on the echo target), interrupts it a second in, and checks
// that it stopped in time with its results marked incomplete.
void check_interrupted(const nlohmann::json& workload, const std::string& trace_name = "",
                       const std::string& trace_text = "") {
  infergate::testing::TempDir dir("infergate-interrupt");
  if (!trace_name.empty()) write(dir.file(trace_name), trace_text);
  const std::string path = dir.file("w.json"), out = dir.file("out.json"),
                    log = dir.file("log.txt");
  write(path, workload.dump());
  const pid_t pid = start_run(path, out, log);
  REQUIRE(pid > 0);
  std::this_thread::sleep_for(std::chrono::seconds(1));
  ::kill(pid, SIGINT);
  const Clock::time_point sent = Clock::now();
  const int code = wait_exit(pid, kStopWithin);
  const double took_s = std::chrono::duration<double>(Clock::now() - sent).count();
  INFO(workload.dump() << "\n" << read_text(log) << "stopped after " << took_s << " s");
  REQUIRE(code == 130);
  const nlohmann::json results = nlohmann::json::parse(read_text(out));
  CHECK(results["incomplete"] == true);
  CHECK_THAT(read_text(log), Catch::Contains("(incomplete)"));
}

nlohmann::json echo_workload(const nlohmann::json& dataset, const nlohmann::json& load) {
  nlohmann::json w = {{"schema", "infergate.workload/v1"},
                      {"name", "interrupt"},
                      {"target", {{"type", "echo"}}},
                      {"load", load}};
  if (!dataset.is_null()) w["dataset"] = dataset;
  return w;
}

nlohmann::json trace_workload(const std::string& format, const std::string& file) {
  return echo_workload({{"type", "trace"}, {"format", format}, {"path", file}},
                       {{"mode", "trace"}, {"warmup_requests", 0}});
}

}  // namespace

TEST_CASE("Ctrl-C stops an open loop waiting hours for its next arrival") {
  check_interrupted(echo_workload(nullptr, {{"mode", "open"},
                                            {"rate", 0.0001},
                                            {"arrival", "constant"},
                                            {"num_requests", 2},
                                            {"warmup_requests", 0}}));
}

TEST_CASE("Ctrl-C stops an open ramp waiting for its next stage's arrival") {
  check_interrupted(echo_workload(
      nullptr, {{"mode", "open"},
                {"arrival", "constant"},
                {"ramp", {{"from", 0.001}, {"to", 0.002}, {"stages", 2}, {"stage_s", 3600}}}}));
}

TEST_CASE("Ctrl-C stops a closed ramp waiting for its next user to join") {
  check_interrupted(echo_workload(
      nullptr,
      {{"mode", "closed"}, {"ramp", {{"from", 1}, {"to", 2}, {"stages", 2}, {"stage_s", 3600}}}}));
}

TEST_CASE("Ctrl-C stops a trace replay in the middle of an hour's gap, in every format") {
  check_interrupted(
      trace_workload("mooncake", "t.jsonl"), "t.jsonl",
      R"({"timestamp": 0, "input_length": 8, "output_length": 2, "hash_ids": [1]})"
      "\n"
      R"({"timestamp": 3600000, "input_length": 8, "output_length": 2, "hash_ids": [1]})"
      "\n");
  check_interrupted(trace_workload("azure", "t.csv"), "t.csv",
                    "TIMESTAMP,ContextTokens,GeneratedTokens\n"
                    "2023-11-16 18:15:46.6805900,8,2\n"
                    "2023-11-16 20:15:46.6805900,8,2\n");
  check_interrupted(trace_workload("burstgpt", "t.csv"), "t.csv",
                    "Timestamp,Model,Request tokens,Response tokens\n0,m,8,2\n7200,m,8,2\n");
}

TEST_CASE("Ctrl-C stops sessions in the middle of an hour's think time") {
  check_interrupted(
      echo_workload({{"type", "sessions"},
                     {"num_sessions", 2},
                     {"turns", 3},
                     {"input_tokens", {{"dist", "fixed"}, {"value", 8}}},
                     {"output_tokens", {{"dist", "fixed"}, {"value", 2}}}},
                    {{"mode", "sessions"}, {"concurrency", 1}, {"think_time_s", 3600}}));
}

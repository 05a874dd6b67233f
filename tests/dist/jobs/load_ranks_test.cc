// `mpirun -np N infergate run W` (docs/distributed.md, "Load from many hosts"): N load ranks
// split one schedule, rank 0 merges every record on its clock into one results file of the
// same form as a single process's, and the refusals are said once, clearly.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "common/http/child_server.h"
#include "common/io/json_file.h"
#include "tests/dist/jobs/job.h"

namespace infergate {

using Catch::Matchers::Contains;

namespace {

std::string out_dir() {
  const std::filesystem::path dir = std::filesystem::path(INFERGATE_TEST_OUT_DIR) / "load_ranks";
  std::filesystem::create_directories(dir);
  return dir.string();
}

// A workload file in the test's folder; `body` is its JSON.
std::string workload_file(const std::string& name, const nlohmann::json& body) {
  const std::string path = out_dir() + "/" + name + ".json";
  std::ofstream(path) << body.dump(2);
  return path;
}

nlohmann::json workload(const nlohmann::json& target, const nlohmann::json& load) {
  return {{"schema", "infergate.workload/v1"},
          {"name", "load-ranks"},
          {"target", target},
          {"dataset",
           {{"input_tokens", {{"dist", "fixed"}, {"value", 16}}},
            {"output_tokens", {{"dist", "uniform"}, {"min", 4}, {"max", 12}}}}},
          {"load", load},
          {"record_requests", true}};
}

// Runs `path` on `ranks` ranks (1: no mpirun) and reads the results back.
nlohmann::json run(int ranks, const std::string& path, const std::string& name) {
  const std::string out = out_dir() + "/" + name + ".json";
  std::filesystem::remove(out);
  const std::string command = std::string(INFERGATE_BINARY) + " run " + path + " -q --out " + out;
  const test::JobResult job =
      ranks == 1 ? test::run_command(command) : test::run_mpi_job(ranks, command);
  INFO(job.output);
  REQUIRE(job.exit_status == 0);
  return read_json_file(out);
}

const nlohmann::json& repetition(const nlohmann::json& results) {
  return results.at("points").at(0).at("repetitions").at(0);
}

// Each record's scheduled time from the first one's, in ms.
std::vector<double> schedule_ms(const nlohmann::json& results) {
  std::vector<double> out;
  for (const nlohmann::json& r : repetition(results).at("requests")) {
    out.push_back(r.at("scheduled_ms").get<double>());
  }
  return out;
}

}  // namespace

TEST_CASE("load ranks split an open schedule and merge it into one single-process-like file") {
  ChildServer echo("echo", {INFERGATE_HTTP_ECHO, "--port", "0"}, 30);
  const std::string path = workload_file(
      "open",
      workload({{"type", "openai"}, {"url", echo.url().text()}}, {{"mode", "open"},
                                                                  {"arrival", "poisson"},
                                                                  {"rate", 400},
                                                                  {"num_requests", 300},
                                                                  {"warmup_requests", 10}}));
  const nlohmann::json single = run(1, path, "open-1");
  const nlohmann::json merged = run(3, path, "open-3");
  const nlohmann::json& rep = repetition(merged);
  // The same form: one point, one repetition, every request once, numbered in order.
  CHECK(merged.at("schema") == single.at("schema"));
  REQUIRE(rep.at("requests").size() == 310);
  for (size_t i = 0; i < 310; ++i) CHECK(rep["requests"][i]["index"] == i);
  CHECK(rep.at("summary").at("num_requests") == 300);
  CHECK(rep.at("summary").at("num_completed") == 300);
  // The same schedule: every request at its single-process time, to the clocks' precision.
  const std::vector<double> a = schedule_ms(single), b = schedule_ms(merged);
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) CHECK(b[i] - b[0] == Approx(a[i] - a[0]).margin(0.05));
  // Three ranks, about a third each, their clocks measured and known to well under 1 ms.
  const nlohmann::json& ranks = rep.at("load_ranks");
  REQUIRE(ranks.size() == 3);
  int64_t sent = 0;
  for (int r = 0; r < 3; ++r) {
    CHECK(ranks[r].at("rank") == r);
    CHECK(ranks[r].at("requests").get<int>() >= 103);
    CHECK(ranks[r].at("clock_uncertainty_ms").get<double>() < 1.0);
    sent += ranks[r].at("requests").get<int64_t>();
  }
  CHECK(sent == 310);
  // Within noise of one process: an echo answers in well under a millisecond either way.
  const double ttft_single = repetition(single)["summary"]["ttft_ms"]["p50"].get<double>();
  const double ttft_merged = rep["summary"]["ttft_ms"]["p50"].get<double>();
  CHECK(std::abs(ttft_merged - ttft_single) < 5.0);
  CHECK(rep["summary"]["send_lag_ms"]["p50"].get<double>() < 1.0);
}

TEST_CASE("load ranks split closed-loop users and keep each session on one rank") {
  const std::string closed = workload_file(
      "closed", workload({{"type", "echo"}, {"token_delay_us", 200}},
                         {{"mode", "closed"}, {"concurrency", 3}, {"num_requests", 60}}));
  const nlohmann::json closed_results = run(2, closed, "closed-2");
  const nlohmann::json& rep = repetition(closed_results);
  CHECK(rep.at("summary").at("num_completed") == 60);
  CHECK(rep.at("summary").at("peak_concurrency").get<double>() <= 3);
  CHECK(rep.at("load_ranks").size() == 2);

  nlohmann::json sessions =
      workload({{"type", "echo"}}, {{"mode", "sessions"}, {"concurrency", 3}});
  sessions["dataset"] = {{"type", "sessions"},
                         {"num_sessions", 7},
                         {"turns", 3},
                         {"input_tokens", {{"dist", "fixed"}, {"value", 8}}},
                         {"output_tokens", {{"dist", "fixed"}, {"value", 4}}}};
  const nlohmann::json sessions_results = run(2, workload_file("sessions", sessions), "sessions-2");
  const nlohmann::json& s = repetition(sessions_results);
  CHECK(s.at("sessions").at("completed") == 7);
  CHECK(s.at("sessions").at("cut") == 0);
  std::map<int, int> turns;
  for (const nlohmann::json& r : s.at("requests")) ++turns[r.at("session").get<int>()];
  CHECK(turns.size() == 7);
  for (const auto& [session, n] : turns) CHECK(n == 3);
}

TEST_CASE("load ranks refuse what they cannot split, once and clearly") {
  nlohmann::json load = {{"mode", "open"},
                         {"ramp", {{"from", 10}, {"to", 20}, {"stages", 2}, {"stage_s", 0.2}}},
                         {"stop_when", {{"ttft_p95_ms", 100}}}};
  const std::string ramp = workload_file("ramp", workload({{"type", "echo"}}, load));
  const test::JobResult job = test::run_mpi_job(
      2, std::string(INFERGATE_BINARY) + " run " + ramp + " -q --out " + out_dir() + "/r.json");
  INFO(job.output);
  CHECK(job.exit_status == 2);
  CHECK_THAT(job.output, Contains("several load ranks (mpirun -np 2): load.stop_when"));
}

}  // namespace infergate

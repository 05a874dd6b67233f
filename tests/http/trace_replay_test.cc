// Each sample trace replayed against the infergate_http_echo fixture (a real HTTP server with no
// model): every request is scheduled exactly at its trace time over the speed-up, and the
// harness sends it within a millisecond of that (the median; the tail on a busy machine less).
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "tests/http/http_test_support.h"

namespace infergate::test {
namespace {

using nlohmann::json;

std::string sample(const std::string& name) {
  return std::string(INFERGATE_SOURCE_DIR) + "/workloads/traces/" + name;
}

// Seconds of each usable row from the trace's first row, read here independently of the
// harness's reader: mooncake's milliseconds, azure's time of day, burstgpt's seconds.
std::vector<double> trace_offsets(const std::string& format, const std::string& file) {
  std::ifstream in(file);
  std::string line;
  std::vector<double> t;
  if (format != "mooncake") std::getline(in, line);  // the header
  while (std::getline(in, line)) {
    if (format == "mooncake") {
      t.push_back(json::parse(line)["timestamp"].get<double>() / 1000);
    } else if (format == "azure") {  // one day: HH:MM:SS.fraction after the date
      t.push_back(std::stod(line.substr(11, 2)) * 3600 + std::stod(line.substr(14, 2)) * 60 +
                  std::stod(line.substr(17, line.find(',') - 17)));
    } else {  // burstgpt: a row with 0 response tokens is left out
      std::vector<std::string> cells;
      for (size_t from = 0, comma;; from = comma + 1) {
        comma = line.find(',', from);
        cells.push_back(line.substr(from, comma - from));
        if (comma == std::string::npos) break;
      }
      if (cells.at(3) == "0") continue;
      t.push_back(std::stod(cells[0]));
    }
  }
  const double first = t.front();
  for (double& x : t) x -= first;
  return t;
}

void check_replay(const std::string& format, const std::string& file, double speedup) {
  auto echo = start_echo({"--vocab-size", "32000"});
  const Workload w = http_workload(echo->url(), {{"target", {{"vocab_size", 32000}}},
                                                 {"dataset",
                                                  {{"type", "trace"},
                                                   {"format", format},
                                                   {"path", sample(file)},
                                                   {"speedup", speedup},
                                                   {"input_tokens", nullptr},
                                                   {"output_tokens", nullptr}}},
                                                 {"load",
                                                  {{"mode", "trace"},
                                                   {"rate", nullptr},
                                                   {"arrival", nullptr},
                                                   {"num_requests", nullptr},
                                                   {"warmup_requests", 0}}}});
  const json results = run_and_read_back(w);
  const std::vector<double> expected = trace_offsets(format, sample(file));
  const json& records = results["points"][0]["repetitions"][0]["requests"];
  REQUIRE(records.size() == expected.size());
  CHECK(results["points"][0]["summary"]["num_completed"] == expected.size());
  const double start_ms = records[0]["scheduled_ms"].get<double>();
  std::vector<double> lag_ms;
  for (size_t i = 0; i < records.size(); ++i) {
    const double scheduled = records[i]["scheduled_ms"].get<double>() - start_ms;
    CHECK(scheduled == Approx(expected[i] / speedup * 1e3).margin(1e-3));  // within a microsecond
    lag_ms.push_back(records[i]["sent_ms"].get<double>() -
                     records[i]["scheduled_ms"].get<double>());
  }
  // Sent on time: the median within a millisecond. On a 2-core machine that ctest shares with
  // a compiling test a send may be late now and then, so the tail is held to less; the
  // harness reports every run's own send lag (summary.send_lag_ms).
  std::sort(lag_ms.begin(), lag_ms.end());
  CHECK(lag_ms[lag_ms.size() / 2] < 1.0);
  CHECK(lag_ms.back() < 100.0);
  CHECK(lag_ms.front() >= 0);
  CHECK(echo->terminate() == 0);
}

}  // namespace

TEST_CASE("a Mooncake trace replays at its own times over the echo server") {
  check_replay("mooncake", "mooncake-sample.jsonl", 2);
}

TEST_CASE("an Azure LLM inference trace replays at its own times over the echo server") {
  check_replay("azure", "azure-sample.csv", 1);
}

TEST_CASE("a BurstGPT trace replays at its own times, failed rows left out") {
  check_replay("burstgpt", "burstgpt-sample.csv", 4);
}

}  // namespace infergate::test

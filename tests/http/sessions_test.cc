// Multi-turn sessions over HTTP against the infergate_http_echo fixture: each turn sends the
// history, including the answer the server really streamed (its token_ids), then the new
// message, a think time after the answer ended; a server that streams no token ids cuts every
// session after its first turn and the results say why.
#include <catch2/catch.hpp>

#include <map>

#include "bench/dataset/session_dataset.h"
#include "tests/http/http_test_support.h"

namespace infergate::test {
namespace {

using nlohmann::json;

const json kSessions = {{"dataset",
                         {{"type", "sessions"},
                          {"num_sessions", 6},
                          {"turns", 3},
                          {"input_tokens", {{"dist", "uniform"}, {"min", 8}, {"max", 24}}},
                          {"output_tokens", {{"dist", "uniform"}, {"min", 4}, {"max", 12}}},
                          {"system_prompt_tokens", 16}}},
                        {"load",
                         {{"mode", "sessions"},
                          {"concurrency", 2},
                          {"think_time_s", 0.05},
                          {"rate", nullptr},
                          {"arrival", nullptr},
                          {"num_requests", nullptr},
                          {"warmup_requests", 0}}}};

// The requests of each session, in turn order.
std::map<int, std::vector<json>> by_session(const json& results) {
  std::map<int, std::vector<json>> out;
  for (const json& r : results["points"][0]["repetitions"][0]["requests"]) {
    out[r["session"].get<int>()].push_back(r);
  }
  return out;
}

}  // namespace

TEST_CASE("each turn of a session sends the history with the answers the server streamed") {
  auto echo = start_echo({"--vocab-size", "32000"});
  json patch = kSessions;
  patch["target"] = {{"vocab_size", 32000}};
  const Workload w = http_workload(echo->url(), patch);
  const std::vector<BenchSession> sessions =
      make_session_dataset(w.dataset, w.seed, 32000, "", nullptr);
  const json results = run_and_read_back(w);
  const json& summary = results["points"][0]["repetitions"][0]["sessions"];
  CHECK(summary["completed"] == 6);
  CHECK(summary["cut"] == 0);
  REQUIRE(summary["turns"].size() == 3);
  const auto sent = by_session(results);
  REQUIRE(sent.size() == 6);
  for (const auto& [s, turns] : sent) {
    REQUIRE(turns.size() == 3);
    int expected = int(sessions[size_t(s)].turns[0].message.size());
    for (size_t k = 0; k < turns.size(); ++k) {
      CHECK(turns[k]["turn"] == int(k) + 1);
      CHECK(turns[k]["input_tokens"] == expected);  // what the server counted it received
      CHECK(turns[k]["output_tokens"] == sessions[size_t(s)].turns[k].max_tokens);
      if (k > 0) {  // sent a think time after the previous answer ended
        CHECK(turns[k]["scheduled_ms"].get<double>() ==
              Approx(turns[k - 1]["finished_ms"].get<double>() + 50).margin(1e-3));
      }
      if (k + 1 < turns.size()) {
        expected += turns[k]["output_tokens"].get<int>() +
                    int(sessions[size_t(s)].turns[k + 1].message.size());
      }
    }
  }
  CHECK(echo->terminate() == 0);
}

TEST_CASE(
    "a server that streams no token ids ends every session after its first turn, saying why") {
  auto echo = start_echo({"--vocab-size", "32000", "--no-token-ids"});
  json patch = kSessions;
  patch["target"] = {{"vocab_size", 32000}};
  const json results = run_and_read_back(http_workload(echo->url(), patch));
  const json& summary = results["points"][0]["repetitions"][0]["sessions"];
  CHECK(summary["completed"] == 0);
  CHECK(summary["cut"] == 6);
  CHECK_THAT(summary["cut_reason"].get<std::string>(),
             Catch::Contains("gave 0 token ids") && Catch::Contains("stream token_ids"));
  CHECK(results["points"][0]["repetitions"][0]["requests"].size() == 6);  // first turns only
  CHECK(echo->terminate() == 0);
}

}  // namespace infergate::test

// Multi-turn sessions on the in-process engine: a turn's prompt is the history with the
// engine's own answers, so the prefix cache serves all of it but the tail it never computed,
// and the per-turn hit rate grows turn after turn.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>

#include "bench/dataset/session_dataset.h"
#include "bench/driver/run_workload.h"
#include "bench/workload/workload_parser.h"
#include "common/results/results_file.h"
#include "tests/temp_dir.h"

using namespace infergate;

TEST_CASE("multi-turn sessions hit the prefix cache for every block of their history") {
  infergate::testing::TempDir dir;
  RunOptions o;
  o.out_path = dir.file("r.json");
  o.quiet = true;
  const Workload w =
      load_workload_file(std::string(INFERGATE_SOURCE_DIR) + "/workloads/multi-turn.json",
                         {"record_requests=true", "dataset.num_sessions=8"});
  const nlohmann::json results = run_workload(w, o).results;
  // Every section, the sessions' and the turn-tagged records too, reads back as written.
  CHECK(results_to_json(parse_results(results, "sessions.json")) == results);
  const nlohmann::json& rep = results["points"][0]["repetitions"][0];
  CHECK(rep["sessions"]["completed"] == 8);
  std::map<int, std::vector<nlohmann::json>> sessions;
  for (const nlohmann::json& r : rep["requests"]) sessions[r["session"].get<int>()].push_back(r);
  REQUIRE(sessions.size() == 8);
  const int block = w.target.engine.block_size;
  for (const auto& [s, turns] : sessions) {
    REQUIRE(turns.size() == 4);
    for (size_t k = 1; k < turns.size(); ++k) {
      // Every full block of the previous prompt and answer, but the answer's last token (its KV
      // was never computed).
      const int history =
          turns[k - 1]["input_tokens"].get<int>() + turns[k - 1]["output_tokens"].get<int>() - 1;
      CHECK(turns[k]["cached_tokens"] == history / block * block);
    }
  }
  const nlohmann::json& per_turn = rep["sessions"]["turns"];
  REQUIRE(per_turn.size() == 4);
  for (size_t k = 1; k < per_turn.size(); ++k) {
    CHECK(per_turn[k]["prefix_cache_hit_rate"].get<double>() >
          per_turn[k - 1]["prefix_cache_hit_rate"].get<double>());
  }
}

TEST_CASE("a simulated target holds the same sessions in virtual time, identically run to run") {
  infergate::testing::TempDir dir;
  RunOptions o;
  o.out_path = dir.file("r.json");
  o.quiet = true;
  const Workload w = load_workload_file(
      std::string(INFERGATE_SOURCE_DIR) + "/workloads/multi-turn.json",
      {"target.type=simulated", "target.hardware=h100-sxm", "record_requests=true"});
  const nlohmann::json a = run_workload(w, o).results["points"][0]["repetitions"][0];
  const nlohmann::json b = run_workload(w, o).results["points"][0]["repetitions"][0];
  CHECK(a["sessions"]["completed"] == 16);
  const nlohmann::json& turns = a["sessions"]["turns"];
  REQUIRE(turns.size() == 4);
  for (size_t k = 1; k < turns.size(); ++k) {
    CHECK(turns[k]["prefix_cache_hit_rate"].get<double>() >
          turns[k - 1]["prefix_cache_hit_rate"].get<double>());
  }
  std::map<int, int> turns_held;
  for (const nlohmann::json& r : a["requests"]) ++turns_held[r["session"].get<int>()];
  REQUIRE(turns_held.size() == 16);
  for (const auto& [session, held] : turns_held) CHECK(held == 4);
  CHECK(a["requests"] == b["requests"]);
}

TEST_CASE("load mode sessions goes with a sessions dataset, and its settings are checked") {
  const auto workload = [](const nlohmann::json& dataset, const nlohmann::json& load) {
    nlohmann::json doc = {{"schema", "infergate.workload/v1"},
                          {"name", "s"},
                          {"target", {{"type", "echo"}}},
                          {"dataset", dataset},
                          {"load", load}};
    return parse_workload(doc, "s.json", ".");
  };
  const nlohmann::json sessions = {{"type", "sessions"}, {"num_sessions", 4}, {"turns", 3}};
  CHECK(workload(sessions, {{"mode", "sessions"}, {"concurrency", 2}}).load.concurrency == 2);
  CHECK_THROWS_WITH(
      workload(sessions, {{"mode", "closed"}, {"num_requests", 4}}),
      Catch::Contains("$.load.mode") && Catch::Contains("set load.mode \"sessions\""));
  CHECK_THROWS_WITH(workload({{"type", "synthetic"}}, {{"mode", "sessions"}}),
                    Catch::Contains("from a dataset of type \"sessions\""));
  CHECK_THROWS_WITH(workload(sessions, {{"mode", "sessions"}, {"num_requests", 4}}),
                    Catch::Contains("$.load.num_requests"));
  CHECK_THROWS_WITH(workload(sessions, {{"mode", "sessions"}, {"think_time_s", -1}}),
                    Catch::Contains("$.load.think_time_s"));
  nlohmann::json none = sessions;
  none["num_sessions"] = 0;
  CHECK_THROWS_WITH(workload(none, {{"mode", "sessions"}}),
                    Catch::Contains("$.dataset.num_sessions"));
  nlohmann::json path = sessions;
  path["path"] = "x.jsonl";  // a ShareGPT file's setting
  CHECK_THROWS_WITH(workload(path, {{"mode", "sessions"}}), Catch::Contains("$.dataset.path"));
}

TEST_CASE("ShareGPT conversations become sessions: each human turn answered by gpt is a turn") {
  infergate::testing::TempDir dir;
  const std::string path = dir.file("chats.jsonl");
  std::ofstream(path)
      << R"({"conversations": [{"from": "system", "value": "be brief"}, {"from": "human", "value": "hi there"}, {"from": "gpt", "value": "hello"}, {"from": "human", "value": "and?"}, {"from": "gpt", "value": "bye now"}]})"
      << "\n\n"
      << R"({"conversations": [{"from": "human", "value": "unanswered"}]})"
      << "\n"
      << R"({"conversations": [{"from": "human", "value": "one"}, {"from": "gpt", "value": "two"}]})"
      << "\n";
  DatasetSpec d;
  d.type = "sessions";
  d.format = "sharegpt";
  d.path = path;
  const DatasetTokenizer tok = byte_dataset_tokenizer(32000, "test");
  const std::vector<BenchSession> s = make_session_dataset(d, 1, 32000, "", &tok);
  REQUIRE(s.size() == 2);  // the unanswered conversation has no turn
  REQUIRE(s[0].turns.size() == 2);
  CHECK(s[0].turns[0].message == tok.tokenizer->encode("hi there", tok.add_bos));
  CHECK(s[0].turns[0].max_tokens == int(tok.tokenizer->encode("hello", false).size()));
  CHECK(s[0].turns[1].message == tok.tokenizer->encode("and?", false));  // no BOS mid-session
  CHECK(s[1].turns.size() == 1);
  d.sessions.num_sessions = 1;
  CHECK(make_session_dataset(d, 1, 32000, "", &tok).size() == 1);
  std::ofstream(path) << "{\"conversations\": 5}\n";
  CHECK_THROWS_WITH(make_session_dataset(d, 1, 32000, "", &tok),
                    Catch::Contains("chats.jsonl:1:") && Catch::Contains("conversations"));
}

TEST_CASE("ShareGPT sessions refuse lines that are not JSON records, naming the line") {
  infergate::testing::TempDir dir;
  const std::string path = dir.file("chats.jsonl");
  DatasetSpec d;
  d.type = "sessions";
  d.format = "sharegpt";
  d.path = path;
  const DatasetTokenizer tok = byte_dataset_tokenizer(32000, "test");
  const std::string ok =
      R"({"conversations": [{"from": "human", "value": "one"}, {"from": "gpt", "value": "two"}]})";
  std::ofstream(path) << ok << "\n{\"conversations\": " << std::string(100'000, '[') << "\n";
  CHECK_THROWS_WITH(make_session_dataset(d, 1, 32000, "", &tok),
                    Catch::Contains("chats.jsonl:2: not a usable JSON record: nests deeper than "
                                    "the limit of 128 levels"));
  std::ofstream(path) << ok << "\n{\"conversations\": [}\n";
  CHECK_THROWS_WITH(make_session_dataset(d, 1, 32000, "", &tok),
                    Catch::Contains("chats.jsonl:2: not JSON at byte 20 of the line: ") &&
                        !Catch::Contains("json.exception"));
}

TEST_CASE("sessions whose warm-up takes every turn are refused before the run, naming both") {
  infergate::testing::TempDir dir;
  RunOptions o;
  o.out_path = dir.file("r.json");
  o.quiet = true;
  const nlohmann::json doc = {
      {"schema", "infergate.workload/v1"},
      {"name", "s"},
      {"target", {{"type", "echo"}}},
      {"dataset", {{"type", "sessions"}, {"num_sessions", 2}, {"turns", 3}}},
      {"load", {{"mode", "sessions"}, {"concurrency", 2}, {"warmup_requests", 6}}}};
  Workload w = parse_workload(doc, "s.json", ".");
  w.source_path = "s.json";  // as load_workload_file sets it
  CHECK_THROWS_WITH(run_workload(w, o),
                    Catch::Contains("s.json: $.load.warmup_requests: 6 is out of range") &&
                        Catch::Contains("less than the sessions' 6 turns"));
  nlohmann::json fewer = doc;
  fewer["load"]["warmup_requests"] = 5;  // one turn is measured
  const nlohmann::json results = run_workload(parse_workload(fewer, "s.json", "."), o).results;
  CHECK(results["points"][0]["repetitions"][0]["summary"]["num_requests"] == 1);
}

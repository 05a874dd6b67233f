// The README's main job, whole, inside the suite: parse, run, write, read back.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "bench/driver/run_workload.h"
#include "bench/workload/workload_parser.h"
#include "common/results/results_file.h"

using namespace infergate;

TEST_CASE("the quickstart workload runs and writes a complete results file", "[bench][run]") {
  const std::string path = std::string(INFERGATE_SOURCE_DIR) + "/workloads/quickstart.json";
  // Shortened so the suite stays quick; the override is recorded like any other.
  const Workload w = load_workload_file(path, {"load.num_requests=12", "load.rate=20"});
  RunOptions o;
  o.out_path = (std::filesystem::temp_directory_path() / "infergate-quickstart-test.json").string();
  o.quiet = true;
  const RunOutcome outcome = run_workload(w, o);
  REQUIRE_FALSE(outcome.incomplete);

  std::ifstream in(o.out_path);
  const nlohmann::json doc = nlohmann::json::parse(in);
  REQUIRE(doc == outcome.results);
  // An engine target's statistics and timeline read back through the typed sections as written.
  CHECK(results_to_json(load_results(o.out_path)) == doc);
  REQUIRE(doc["schema"] == "infergate.results/v1");
  REQUIRE(doc["workload_hash"] == w.hash);
  REQUIRE(doc["overrides"].size() == 2u);
  const nlohmann::json& s = doc["summary"];
  for (const char* key : {"request_throughput_rps", "output_throughput_tps", "peak_memory_bytes",
                          "utilization_pct"}) {
    INFO(key);
    REQUIRE(s[key].get<double>() > 0);
  }
  // Whether SLOs are met depends on the machine; goodput can only be a share of throughput.
  REQUIRE(s["goodput_rps"].get<double>() <= s["request_throughput_rps"].get<double>());
  REQUIRE(s["good_fraction"].get<double>() >= 0);
  REQUIRE(s["good_fraction"].get<double>() <= 1);
  REQUIRE(s["num_completed"] == 12);
  for (const char* stat : {"ttft_ms", "tpot_ms", "itl_ms", "e2e_ms"}) {
    INFO(stat);
    REQUIRE(s[stat]["count"].get<double>() > 0);
    REQUIRE(s[stat]["p95"].get<double>() >= s[stat]["p50"].get<double>());
  }
  const nlohmann::json& rep = doc["points"][0]["repetitions"][0];
  REQUIRE_FALSE(rep["timeline"].empty());
  REQUIRE(rep["engine"]["weights_bytes"].get<double>() > 0);
  REQUIRE(doc["manifest"].contains("git"));
  std::filesystem::remove(o.out_path);
}

// What the harness writes, the gates' reader accepts: every check of docs/results-schema.md,
// with per-request records, and the hash recomputed from the embedded workload, whose dataset
// path counts relative to the workload's folder (recorded as workload_dir).
TEST_CASE("a real run with records and a dataset file passes every check of the results reader",
          "[bench][run]") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "infergate-reader-checks";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "data");
  {
    std::ofstream data(dir / "data/prompts.jsonl");
    for (int i = 0; i < 4; ++i)
      data << R"({"prompt_tokens": [1, 2, 3, 4], "output_tokens": 4})"
           << "\n";
    std::ofstream(dir / "w.json") << R"({"schema": "infergate.workload/v1", "name": "reader",
        "target": {"type": "echo"}, "record_requests": true, "repetitions": 2,
        "dataset": {"type": "jsonl", "path": "data/prompts.jsonl", "format": "tokens"},
        "load": {"mode": "closed", "concurrency": 2, "num_requests": 8, "warmup_requests": 1}})";
  }
  const Workload w = load_workload_file((dir / "w.json").string(), {});
  RunOptions o;
  o.out_path = (dir / "out.json").string();
  o.quiet = true;
  const RunOutcome outcome = run_workload(w, o);
  const ResultsFile r = load_results(o.out_path);
  // One serializer: what the gates write back after reading is what the harness wrote.
  CHECK(results_to_json(r) == outcome.results);
  CHECK(r.workload_hash == w.hash);
  CHECK(r.workload_dir == std::filesystem::absolute(dir).string());
  CHECK(r.points.at(0).repetitions.at(1).requests.size() == 9);
  CHECK(point_errors(r.points[0]).errors == 0);
  std::filesystem::remove_all(dir);
}

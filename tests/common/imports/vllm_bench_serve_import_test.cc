// `vllm bench serve --save-result` files imported (common/imports/vllm_bench_serve_import.h):
// with --save-detailed, our distributions are recomputed from the per-request arrays and equal
// hand-checked figures of the fixture (and vLLM's own summaries, which use the same
// definitions); without, only what vLLM wrote is mapped; a bad file is refused naming the field.
#include <catch2/catch.hpp>

#include "common/imports/import_error.h"
#include "common/imports/import_results_file.h"
#include "common/results/metric_registry.h"
#include "tests/common/imports/import_test_files.h"

using namespace infergate;
using namespace infergate::testing;
using nlohmann::json;

namespace {

std::string notes_of(const json& doc) { return doc["workload"]["imported"]["notes"].dump(); }

}  // namespace

TEST_CASE("a vllm bench serve file with per-request arrays imports with our statistics") {
  const json doc = import_results_file(import_fixture("vllm_bench_serve.json"));
  const json s = accepted_summary(doc);
  for (const MetricInfo& m : run_summary_metrics()) CHECK(s.contains(std::string(m.name)));
  CHECK(s["num_requests"] == 8);
  CHECK(s["num_completed"] == 7);
  CHECK(s["num_errors"] == 1);
  CHECK(s["error_share"].get<double>() == Approx(0.125));
  CHECK(s["error_share_exceeded"] == true);
  // TTFT of the 7 successes: 88 90 92 98 120 135 141 ms.
  CHECK(s["ttft_ms"]["count"] == 7);
  CHECK(s["ttft_ms"]["mean"].get<double>() == Approx(109.142857));
  CHECK(s["ttft_ms"]["min"].get<double>() == Approx(88));
  CHECK(s["ttft_ms"]["p50"].get<double>() == Approx(98));
  CHECK(s["ttft_ms"]["p90"].get<double>() == Approx(137.4));  // rank 5.4: 135 + 0.4 * 6
  CHECK(s["ttft_ms"]["p95"].get<double>() == Approx(139.2));
  CHECK(s["ttft_ms"]["p99"].get<double>() == Approx(140.64));
  CHECK(s["ttft_ms"]["max"].get<double>() == Approx(141));
  // TPOT over the 6 requests with 2 tokens or more; ITL over their 27 gaps.
  CHECK(s["tpot_ms"]["count"] == 6);
  CHECK(s["tpot_ms"]["mean"].get<double>() == Approx(20.636111));
  CHECK(s["itl_ms"]["count"] == 27);
  CHECK(s["itl_ms"]["mean"].get<double>() == Approx(20.703704));
  CHECK(s["itl_ms"]["min"].get<double>() == Approx(18));
  CHECK(s["itl_ms"]["max"].get<double>() == Approx(25));
  CHECK(s["e2e_ms"]["count"] == 7);
  CHECK(s["e2e_ms"]["mean"].get<double>() == Approx(189.0));
  CHECK(s["input_tokens"]["mean"].get<double>() == Approx(902.0 / 7));
  CHECK(s["output_tokens"]["mean"].get<double>() == Approx(34.0 / 7));
  CHECK(s["send_lag_ms"]["count"] == 8);  // vLLM's queue_times, every request
  CHECK(s["send_lag_ms"]["max"].get<double>() == Approx(226.43));
  CHECK(s["duration_s"].get<double>() == Approx(0.4172));
  CHECK(s["request_throughput_rps"].get<double>() == Approx(16.778523));
  CHECK(s["peak_concurrency"].get<double>() == 4);
  CHECK(s["peak_memory_bytes"].is_null());
  CHECK(s["peak_gpu_memory_bytes"].is_null());
}

TEST_CASE("vllm statistics recomputed from its arrays equal the summaries vLLM wrote") {
  const json file = read_fixture("vllm_bench_serve.json");
  const json s = accepted_summary(import_results_file(import_fixture("vllm_bench_serve.json")));
  for (const auto& [theirs, ours] : {std::pair{"ttft", "ttft_ms"}, std::pair{"tpot", "tpot_ms"},
                                     std::pair{"itl", "itl_ms"}, std::pair{"e2el", "e2e_ms"}}) {
    INFO(theirs);
    const std::string t(theirs);
    CHECK(s[ours]["mean"].get<double>() == Approx(file["mean_" + t + "_ms"].get<double>()));
    CHECK(s[ours]["p50"].get<double>() == Approx(file["median_" + t + "_ms"].get<double>()));
    CHECK(s[ours]["p90"].get<double>() == Approx(file["p90_" + t + "_ms"].get<double>()));
    CHECK(s[ours]["p99"].get<double>() == Approx(file["p99_" + t + "_ms"].get<double>()));
  }
}

TEST_CASE("a vllm import describes its source and notes each definition difference") {
  const json doc = import_results_file(import_fixture("vllm_bench_serve.json"));
  CHECK(doc["command"] == "import");
  CHECK(doc["created_at"] == "2026-08-12T14:15:03");
  CHECK(doc["workload"]["name"] == "vllm-bench-serve/meta-llama/Llama-3.1-8B-Instruct");
  const json& imported = doc["workload"]["imported"];
  CHECK(imported["tool"] == "vllm bench serve");
  CHECK(imported["source_file"] == import_fixture("vllm_bench_serve.json"));
  CHECK(imported["settings"]["request_rate"] == "inf");
  CHECK(imported["settings"]["max_concurrency"] == 4);
  CHECK(doc["workload"]["load"]["max_concurrency"] == 4);
  CHECK(doc["workload"]["load"]["num_requests"] == 8);
  const std::string notes = notes_of(doc);
  CHECK_THAT(notes, Catch::Contains("from the actual send"));
  CHECK_THAT(notes, Catch::Contains("max_concurrent_requests"));
  CHECK_THAT(notes, Catch::Contains("no per-request records"));
  CHECK_THAT(notes, Catch::Contains("peak_memory_bytes"));
  // No records: their scheduled send times are unknown.
  CHECK_FALSE(doc["points"][0]["repetitions"][0].contains("requests"));
  const json& errors = doc["points"][0]["repetitions"][0]["errors"];
  REQUIRE(errors.size() == 1);
  CHECK(errors[0]["class"] == "Internal Server Error");
  CHECK(errors[0]["count"] == 1);
}

TEST_CASE("a vllm file without per-request arrays maps only the statistics vLLM wrote") {
  json file = read_fixture("vllm_bench_serve.json");
  for (const char* key : {"input_lens", "output_lens", "ttfts", "itls", "start_times",
                          "generated_texts", "errors", "p90_ttft_ms"}) {
    file.erase(key);
  }
  const json doc = import_edited(file, "vllm.json");
  const json s = accepted_summary(doc);
  CHECK(s["ttft_ms"] == json({{"count", 7},
                              {"mean", file["mean_ttft_ms"]},
                              {"p50", 98.0},
                              {"p99", file["p99_ttft_ms"]}}));
  CHECK_FALSE(s["tpot_ms"].contains("count"));  // vLLM does not write it
  CHECK_FALSE(s["tpot_ms"].contains("min"));
  CHECK(s["input_tokens"] == json({{"count", 7}, {"mean", 902.0 / 7}}));
  CHECK(s["num_errors"] == 1);
  CHECK_THAT(notes_of(doc), Catch::Contains("left out"));
  // vLLM gives no error text without the arrays: one class says so.
  CHECK_THAT(doc["points"][0]["repetitions"][0]["errors"][0]["class"].get<std::string>(),
             Catch::Contains("not classified"));
}

TEST_CASE("a vllm file with a negative latency is refused naming the entry") {
  json file = read_fixture("vllm_bench_serve.json");
  file["ttfts"][1] = -0.135;
  REQUIRE_THROWS_AS(import_edited(file, "vllm.json"), ImportError);
  REQUIRE_THROWS_WITH(import_edited(file, "vllm.json"),
                      Catch::Contains("$.ttfts[1]: -0.135 is negative"));
}

TEST_CASE("a vllm file whose counts do not add up is refused naming the count") {
  json file = read_fixture("vllm_bench_serve.json");
  file["completed"] = 6;
  REQUIRE_THROWS_WITH(import_edited(file, "vllm.json"),
                      Catch::Contains("$.completed: 6 disagrees with the 7 requests"));
  file = read_fixture("vllm_bench_serve.json");
  file["itls"].erase(file["itls"].end() - 1);
  REQUIRE_THROWS_WITH(import_edited(file, "vllm.json"), Catch::Contains("$.itls: has 7 entries"));
}

TEST_CASE("a vllm file without a required key is refused naming the key") {
  json file = read_fixture("vllm_bench_serve.json");
  file.erase("duration");
  REQUIRE_THROWS_WITH(import_edited(file, "vllm.json"), Catch::Contains("$.duration: missing"));
}

TEST_CASE("a vllm file appended to twice imports as two runs") {
  const TempDir dir;
  const std::string line = read_fixture("vllm_bench_serve.json").dump();
  const std::string path = write_text(dir, "appended.json", line + "\n" + line);
  const std::vector<json> runs = import_results_runs(path);
  REQUIRE(runs.size() == 2);
  CHECK(runs[1]["workload"]["name"] == "vllm-bench-serve/meta-llama/Llama-3.1-8B-Instruct/line-2");
  for (const json& run : runs) CHECK(accepted_summary(run)["num_requests"] == 8);
  REQUIRE_THROWS_WITH(import_results_file(path), Catch::Contains("holds 2 runs"));
}

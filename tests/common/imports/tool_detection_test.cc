// Which tool wrote a file (common/imports/tool_detection.h) and what is refused before any
// importer runs (common/imports/import_json_text.h): unknown tools, our own results, truncated
// JSON, arrays and files beyond the bounds; every message names the file and what was seen.
#include <catch2/catch.hpp>

#include <filesystem>

#include "common/imports/import_error.h"
#include "common/imports/import_json_text.h"
#include "common/imports/import_limits.h"
#include "common/imports/import_results_file.h"
#include "common/imports/tool_detection.h"
#include "tests/common/imports/import_test_files.h"

using namespace infergate;
using namespace infergate::testing;
using nlohmann::json;

TEST_CASE("each fixture is detected as the tool that wrote it") {
  const std::pair<const char*, ImportTool> fixtures[] = {
      {"vllm_bench_serve.json", ImportTool::kVllmBenchServe},
      {"aiperf_profile_export.json", ImportTool::kAiperf},
      {"guidellm_benchmarks.json", ImportTool::kGuidellm},
      {"inference_perf_summary_lifecycle_metrics.json", ImportTool::kInferencePerf}};
  for (const auto& [name, tool] : fixtures) {
    INFO(name);
    CHECK(detect_results_file(import_fixture(name)).tool == tool);
  }
  CHECK(detect_results_file(import_fixture("vllm_bench_serve.json")).version ==
        "unknown (no version field; layout of vllm bench serve)");
}

TEST_CASE("every fixture imports to a document our results reader accepts") {
  for (const char* name :
       {"vllm_bench_serve.json", "aiperf_profile_export.json", "guidellm_benchmarks.json",
        "inference_perf_summary_lifecycle_metrics.json"}) {
    INFO(name);
    const json doc = import_results_file(import_fixture(name));
    const ResultsFile r = parse_results(doc, name);
    CHECK(r.command == "import");
    CHECK(r.points.size() == 1);
    CHECK(r.num_repetitions() == 1);
    CHECK(r.points[0].repetitions[0].requests.empty());
    CHECK(doc["workload"]["imported"]["notes"].size() > 3);
  }
}

TEST_CASE("a document of an unknown tool is refused naming the keys seen") {
  const json unknown = {{"foo", 1}, {"bar", {1, 2}}};
  REQUIRE_THROWS_AS(detect_tool(unknown, "x.json"), ImportError);
  REQUIRE_THROWS_WITH(detect_tool(unknown, "x.json"),
                      Catch::Contains("x.json: $: not the results of a tool") &&
                          Catch::Contains("top-level keys: bar, foo"));
  REQUIRE_THROWS_WITH(detect_tool(json::array(), "x.json"), Catch::Contains("expected an object"));
}

TEST_CASE("our own results file and other tools' dialects are refused saying what they are") {
  REQUIRE_THROWS_WITH(detect_tool({{"schema", "infergate.results/v1"}}, "r.json"),
                      Catch::Contains("already an infergate results file"));
  json sglang = read_fixture("vllm_bench_serve.json");
  sglang["total_output_tokens_retokenized"] = 34;
  REQUIRE_THROWS_WITH(detect_tool(sglang, "s.json"), Catch::Contains("sglang"));
  json aiperf = read_fixture("aiperf_profile_export.json");
  aiperf.erase("schema_version");
  REQUIRE_THROWS_WITH(detect_tool(aiperf, "a.json"),
                      Catch::Contains("$.schema_version: missing: an AIPerf 0.10.0 export"));
}

TEST_CASE("a truncated file is refused with the position of the parse error") {
  const TempDir dir;
  const std::string text = read_text(import_fixture("vllm_bench_serve.json"));
  const std::string path = write_text(dir, "cut.json", text.substr(0, text.size() / 2));
  REQUIRE_THROWS_AS(import_results_file(path), ImportError);
  REQUIRE_THROWS_WITH(import_results_file(path),
                      Catch::StartsWith(path + ": not JSON at line 1, column"));
  const std::string pretty = read_text(import_fixture("aiperf_profile_export.json"));
  const std::string cut = write_text(dir, "cut2.json", pretty.substr(0, 400));
  REQUIRE_THROWS_WITH(import_results_file(cut), Catch::Contains("not JSON at line"));
}

TEST_CASE("an empty or missing file is refused naming it") {
  const TempDir dir;
  REQUIRE_THROWS_WITH(import_results_file(write_text(dir, "empty.json", "\n")),
                      Catch::Contains("empty file"));
  REQUIRE_THROWS_WITH(import_results_file(dir.file("none.json")),
                      Catch::Contains("none.json: no such file"));
}

TEST_CASE("an array beyond the entry bound is refused before it is built") {
  std::string text = "{\"ttfts\": [";
  text.reserve(2 * kMaxImportArrayEntries + 64);
  for (uint64_t i = 0; i <= kMaxImportArrayEntries; ++i) text += "0,";
  text.back() = ']';
  text += "}";
  REQUIRE_THROWS_WITH(parse_import_text(text, "big.json"),
                      Catch::Contains("big.json: has an array of more than 10000000 entries"));
}

TEST_CASE("a file beyond the size bound is refused before it is read") {
  const TempDir dir;
  const std::string path = write_text(dir, "huge.json", "{}");
  std::filesystem::resize_file(path, kMaxImportFileBytes + 1);  // sparse: costs no disk
  REQUIRE_THROWS_AS(import_results_file(path), ImportError);
  REQUIRE_THROWS_WITH(import_results_file(path), Catch::Contains("huge.json"));
}

TEST_CASE("JSON Lines are told from a pretty-printed document") {
  const std::vector<ImportedDocument> lines = parse_import_text("{\"a\": 1}\n\n{\"a\": 2}\n", "l");
  REQUIRE(lines.size() == 2);
  CHECK(lines[1].root_path == "line 3: $");
  const std::vector<ImportedDocument> one = parse_import_text("{\n  \"a\": 1\n}\n", "p");
  REQUIRE(one.size() == 1);
  CHECK(one[0].root_path == "$");
  REQUIRE_THROWS_WITH(parse_import_text("{\"a\": 1}\n{\"a\": }\n", "l"),
                      Catch::Contains("l: line 2: not JSON"));
}

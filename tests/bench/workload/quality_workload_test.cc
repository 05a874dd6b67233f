// A workload's quality section: parsed and bounded, hashed only when present, scored once per
// run into every repetition's summary, and read back by the gates.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "bench/driver/run_workload.h"
#include "bench/workload/workload_error.h"
#include "bench/workload/workload_parser.h"
#include "common/results/results_file.h"
#include "tests/bench/workload/workload_error_of.h"
#include "tests/temp_dir.h"

namespace infergate {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::TempDir;

const std::string kReadme = std::string(INFERGATE_SOURCE_DIR) + "/README.md";

json tiny_workload(const std::string& weight_dtype) {
  return json::parse(R"({"schema": "infergate.workload/v1", "name": "quality-test",
    "target": {"type": "engine", "model": {"preset": "tiny"},
               "engine": {"weight_dtype": ")" +
                     weight_dtype + R"(", "num_threads": 2}},
    "dataset": {"type": "synthetic", "input_tokens": {"dist": "fixed", "value": 8},
                "output_tokens": {"dist": "fixed", "value": 4}},
    "load": {"mode": "closed", "concurrency": 1, "num_requests": 2}})");
}

json with_quality(json doc, const json& quality) {
  doc["quality"] = quality;
  return doc;
}

TEST_CASE("a quality section is read with its defaults and resolved with an absolute text path") {
  const Workload w =
      parse_workload(with_quality(tiny_workload("q8_0"), {{"text", kReadme}}), "w.json", "");
  REQUIRE(w.quality);
  CHECK(w.quality->text == kReadme);
  CHECK(w.quality->baseline_dtype == "f32");
  CHECK(w.quality->context == 256);
  CHECK(w.quality->chunks == 4);
  CHECK(w.resolved["quality"] ==
        json{{"text", kReadme}, {"baseline_dtype", "f32"}, {"context", 256}, {"chunks", 4}});
}

TEST_CASE("without a quality section the resolved workload and its hash are as before") {
  const Workload plain = parse_workload(tiny_workload("q8_0"), "w.json", "");
  CHECK_FALSE(plain.quality);
  CHECK_FALSE(plain.resolved.contains("quality"));
  const Workload scored =
      parse_workload(with_quality(tiny_workload("q8_0"), {{"text", kReadme}}), "w.json", "");
  CHECK(scored.hash != plain.hash);
}

TEST_CASE("the quality text counts relative to the workload's folder in the hash") {
  std::vector<std::string> hashes;
  for (const char* root : {"infergate-quality-a", "infergate-quality-b/deeper"}) {
    const fs::path dir = fs::temp_directory_path() / root;
    fs::create_directories(dir / "text");
    std::ofstream(dir / "text" / "q.txt") << "some text";
    std::ofstream(dir / "w.json")
        << with_quality(tiny_workload("q8_0"), {{"text", "text/q.txt"}}).dump();
    hashes.push_back(load_workload_file((dir / "w.json").string()).hash);
  }
  CHECK(hashes[0] == hashes[1]);
  fs::remove_all(fs::temp_directory_path() / "infergate-quality-a");
  fs::remove_all(fs::temp_directory_path() / "infergate-quality-b");
}

TEST_CASE("bad quality sections are refused with the field and what is allowed") {
  const json base = tiny_workload("q8_0");
  CHECK_THAT(workload_error_of(with_quality(base, json::object())),
             Catch::Contains("$.quality.text") && Catch::Contains("non-empty path"));
  CHECK_THAT(workload_error_of(with_quality(base, {{"text", "/nonexistent/q.txt"}})),
             Catch::Contains("$.quality.text") && Catch::Contains("is not an existing file"));
  CHECK_THAT(workload_error_of(with_quality(base, {{"text", kReadme}, {"baseline_dtype", "f8"}})),
             Catch::Contains("$.quality.baseline_dtype") && Catch::Contains("q4_0"));
  CHECK_THAT(workload_error_of(with_quality(base, {{"text", kReadme}, {"context", 2}})),
             Catch::Contains("$.quality.context") && Catch::Contains("[4, 1048576]"));
  CHECK_THAT(workload_error_of(with_quality(base, {{"text", kReadme}, {"chunks", 1e9}})),
             Catch::Contains("$.quality.chunks"));
  CHECK_THAT(workload_error_of(with_quality(base, {{"text", kReadme}, {"ctx", 64}})),
             Catch::Contains("$.quality.ctx: unknown key"));
  json echo = with_quality(base, {{"text", kReadme}});
  echo["target"] = {{"type", "echo"}};
  CHECK_THAT(workload_error_of(echo), Catch::Contains("$.quality") && Catch::Contains("engine"));
}

TEST_CASE("a run scores quality once and every repetition's summary carries it", "[bench][run]") {
  TempDir dir("infergate-quality-run");
  json doc =
      with_quality(tiny_workload("q4_0"), {{"text", kReadme}, {"context", 64}, {"chunks", 2}});
  doc["repetitions"] = 2;
  std::ofstream(dir.path() / "w.json") << doc.dump();
  const Workload w = load_workload_file((dir.path() / "w.json").string());
  RunOptions o;
  o.out_path = (dir.path() / "out.json").string();
  o.quiet = true;
  run_workload(w, o);
  const ResultsFile r = load_results(o.out_path);  // every check of the results reader
  const auto& reps = r.points.at(0).repetitions;
  REQUIRE(reps.size() == 2);
  for (const RepetitionResult& rep : reps) {
    CHECK(rep.summary.at("kl_divergence_mean").get<double>() > 0);
    CHECK(rep.summary.at("kl_divergence_p99").get<double>() > 0);
    CHECK(rep.summary.at("top1_agreement").get<double>() <= 1);
    CHECK(rep.summary.at("perplexity").get<double>() > 1);
  }
  CHECK(reps[0].summary.at("kl_divergence_mean") == reps[1].summary.at("kl_divergence_mean"));
  CHECK(r.points.at(0).summary.at("kl_divergence_mean") ==
        reps[0].summary.at("kl_divergence_mean"));
}

TEST_CASE("a text shorter than one chunk stops the run before any load, naming the field") {
  TempDir dir("infergate-quality-short");
  std::ofstream(dir.path() / "short.txt") << "too short";
  std::ofstream(dir.path() / "w.json")
      << with_quality(tiny_workload("q8_0"), {{"text", "short.txt"}, {"context", 512}}).dump();
  const Workload w = load_workload_file((dir.path() / "w.json").string());
  RunOptions o;
  o.out_path = (dir.path() / "out.json").string();
  o.quiet = true;
  CHECK_THROWS_WITH(run_workload(w, o), Catch::Contains("short.txt") &&
                                            Catch::Contains("fewer than one chunk") &&
                                            Catch::Contains("quality.context 512"));
  CHECK_FALSE(fs::exists(o.out_path));
}

}  // namespace
}  // namespace infergate

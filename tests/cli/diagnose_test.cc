// `infergate diagnose` end to end (docs/diagnose.md): each planted symptom's workload run by the
// real binary on the tiny model, then diagnosed from its results file; --verify's paired runs on
// each; bad inputs refused naming the file and the JSON path.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "../temp_dir.h"

namespace {

namespace fs = std::filesystem;

const std::string kBinary = INFERGATE_EXECUTABLE;
const std::string kSource = INFERGATE_SOURCE_DIR;

struct Outcome {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

// One folder for the process's files, removed with them when the tests end.
const fs::path& scratch() {
  static const infergate::testing::TempDir dir("infergate-diagnose");
  return dir.path();
}

Outcome run(const std::string& args) {
  const fs::path log = scratch() / "command.log";
  const std::string command = kBinary + " " + args + " > " + log.string() + " 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text.str()};
}

nlohmann::json read_json(const fs::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// Runs workloads/diagnose-NAME.json and returns its results file.
std::string run_workload(const std::string& name) {
  const std::string out = (scratch() / (name + ".json")).string();
  const Outcome o =
      run("run " + kSource + "/workloads/diagnose-" + name + ".json --quiet --out " + out);
  INFO(o.output);
  REQUIRE(o.exit_code == 0);
  return out;
}

nlohmann::json diagnose(const std::string& results, const std::string& options = "") {
  const std::string json = results + ".diagnosis.json";
  const Outcome o = run("diagnose " + results + " --json " + json + " " + options);
  INFO(o.output);
  REQUIRE(o.exit_code == 0);
  const nlohmann::json d = read_json(json);
  CHECK(d["schema"] == "infergate.diagnosis/v1");
  return d;
}

void check_dominant(const std::string& workload, const std::string& rule) {
  const nlohmann::json d = diagnose(run_workload(workload));
  INFO(d.dump(2));
  REQUIRE_FALSE(d["healthy"].get<bool>());
  CHECK(d["dominant"] == rule);
  const nlohmann::json& first = d["findings"][0];
  CHECK_FALSE(first["evidence"].get<std::string>().empty());
  REQUIRE_FALSE(first["remedies"].empty());
}

// --verify on a planted workload: the planted symptom is dominant and its best remedy, measured
// in paired runs within 3 minutes, is confirmed to improve the named metric (the later
// remedies are left out: --remedies 1). The budget is a cap, not a duration: the paired test stops
// at its first decisive look (6 pairs on a quiet machine), and the room past it is for a CI
// neighbour that disturbs a pair or two: the signed-rank test then needs 8 or 10 pairs, which a
// 1.5-minute budget did not hold (CI at stop 54: inconclusive after 6 pairs).
void check_verified(const std::string& workload, const std::string& rule) {
  const std::string results = run_workload(workload);
  const nlohmann::json d =
      diagnose(results, std::string("--verify --remedies 1 --budget 3 --out-dir ") +
                            (scratch() / ("verify-" + workload)).string());
  INFO(d.dump(2));
  REQUIRE(d["dominant"] == rule);
  const nlohmann::json& remedy = d["findings"][0]["remedies"][0];
  REQUIRE(remedy["verification"].is_object());
  CHECK(remedy["verification"]["outcome"] == "confirmed");
  CHECK(remedy["verification"]["ratio"].get<double>() < 1.0);
  for (const nlohmann::json& f : d["findings"]) {
    for (const nlohmann::json& r : f["remedies"]) {
      if (&r != &remedy) CHECK(r["verification"]["outcome"] == "not run");
    }
  }
}

}  // namespace

TEST_CASE("diagnose names compute-bound prefill first for long prompts", "[timed]") {
  check_dominant("long-prompt", "long-prompt");
}

TEST_CASE("diagnose names the shared prefix with the prefix cache off first", "[timed]") {
  check_dominant("shared-prefix", "shared-prefix-cache-off");
}

TEST_CASE("diagnose names the KV memory wall first when the pool forces preemption", "[timed]") {
  check_dominant("kv-preemption", "kv-memory-wall");
}

TEST_CASE("diagnose names prefill interference first when long prefills run among decodes",
          "[timed]") {
  check_dominant("prefill-interference", "prefill-interference");
}

TEST_CASE("diagnose names the harness first when the echo run outpaces it", "[timed]") {
  check_dominant("harness-limited", "harness-limited");
}

TEST_CASE("diagnose names the batch limit first when requests queue with KV to spare", "[timed]") {
  check_dominant("batch-limit", "batch-limit");
}

TEST_CASE("diagnose proposes speculation when TPOT is at its batch-1 floor", "[timed]") {
  check_dominant("repetitive", "speculation-floor");
}

TEST_CASE("diagnose finds nothing to fix in a healthy run and says so", "[timed]") {
  const std::string results = run_workload("healthy");
  const nlohmann::json d = diagnose(results);
  INFO(d.dump(2));
  CHECK(d["healthy"].get<bool>());
  CHECK(d["summary"] == "nothing to fix");
  const Outcome text = run("diagnose " + results);
  CHECK(text.output.find("nothing to fix") != std::string::npos);
  // The HTML report of the run, with the diagnosis as its first section.
  const fs::path html = scratch() / "healthy.html";
  REQUIRE(run("diagnose " + results + " --html " + html.string()).exit_code == 0);
  std::ifstream in(html);
  std::stringstream page;
  page << in.rdbuf();
  CHECK(page.str().find("Diagnosis") < page.str().find("Summary"));
  CHECK(page.str().find("Nothing to fix") != std::string::npos);
}

// Each remedy's effect as measured on a 2-core EPYC VM (docs/diagnose.md): every one is a cut of
// 30% or more, so six pairs decide it on a quiet machine.
TEST_CASE("diagnose --verify confirms prefix caching on the shared-prefix workload",
          "[timed][verify]") {
  check_verified("shared-prefix", "shared-prefix-cache-off");
}

TEST_CASE("diagnose --verify confirms the KV remedy on the kv-preemption workload",
          "[timed][verify]") {
  check_verified("kv-preemption", "kv-memory-wall");
}

// Whether 8-bit weights speed the tiny model's prefill depends on the CPU: on a 2-core AMD EPYC
// Zen 4, q8_0 took TTFT P50 to 0.61x (confirmed); on a Zen 5 (family 26, whose AVX-512 f32 FMAs
// are full width) to 1.05-1.07x, right at the 5% threshold, which 1.5 minutes of pairs decide
// as worse or leave undecided. What holds on every CPU: --verify runs the remedy in paired runs
// and reports its measured ratio with an interval; the other planted remedies are confirmed.
TEST_CASE("diagnose --verify measures 8-bit weights on the long-prompt workload",
          "[timed][verify]") {
  const std::string results = run_workload("long-prompt");
  const nlohmann::json d = diagnose(results, "--verify --remedies 1 --budget 1.5 --out-dir " +
                                                 (scratch() / "verify-long-prompt").string());
  INFO(d.dump(2));
  REQUIRE(d["dominant"] == "long-prompt");
  const nlohmann::json& v = d["findings"][0]["remedies"][0]["verification"];
  REQUIRE(v.is_object());
  const std::string outcome = v["outcome"];
  CHECK((outcome == "confirmed" || outcome == "worse" || outcome == "refuted" ||
         outcome == "inconclusive"));
  CHECK(v["pairs"].get<int>() >= 4);
  const double ratio = v["ratio"], lo = v["ratio_interval"][0], hi = v["ratio_interval"][1];
  CHECK(lo <= ratio);
  CHECK(ratio <= hi);
  if (outcome != "confirmed") WARN("8-bit weights on this CPU: " << v["reason"]);
}

TEST_CASE("diagnose --verify confirms chunked prefill on the prefill-interference workload",
          "[timed][verify]") {
  check_verified("prefill-interference", "prefill-interference");
}

TEST_CASE("diagnose --verify confirms a sustainable rate on the harness-limited workload",
          "[timed][verify]") {
  check_verified("harness-limited", "harness-limited");
}

TEST_CASE("diagnose --verify confirms a larger batch on the batch-limit workload",
          "[timed][verify]") {
  check_verified("batch-limit", "batch-limit");
}

TEST_CASE("diagnose --verify confirms n-gram speculation on the repetitive workload",
          "[timed][verify]") {
  check_verified("repetitive", "speculation-floor");
}

TEST_CASE("diagnose refuses a file that is not a results file, naming it") {
  const std::string workload = kSource + "/workloads/diagnose-healthy.json";
  const Outcome o = run("diagnose " + workload);
  INFO(o.output);
  CHECK(o.exit_code == 2);
  CHECK(o.output.find(workload) != std::string::npos);
  CHECK(o.output.find("$.") != std::string::npos);
  const Outcome missing = run("diagnose " + (scratch() / "no-such.json").string());
  CHECK(missing.exit_code == 2);
  CHECK(missing.output.find("no-such.json") != std::string::npos);
  const Outcome zero = run("diagnose " + workload + " --verify --remedies 0");
  CHECK(zero.exit_code == 2);
  CHECK(zero.output.find("--remedies: from 1 to 100") != std::string::npos);
}

TEST_CASE("diagnose refuses a results file without the latency statistics it reads") {
  nlohmann::json doc = read_json(run_workload("harness-limited"));
  // A results file of another kind (bench-comm's carry metrics of their own): no TTFT anywhere.
  doc["summary"].erase("ttft_ms");
  for (auto& point : doc["points"]) {
    point["summary"].erase("ttft_ms");
    for (auto& rep : point["repetitions"]) rep["summary"].erase("ttft_ms");
  }
  const fs::path path = scratch() / "no-ttft.json";
  std::ofstream(path) << doc.dump();
  const Outcome o = run("diagnose " + path.string());
  INFO(o.output);
  CHECK(o.exit_code == 2);
  CHECK(o.output.find(path.string()) != std::string::npos);
  CHECK(o.output.find("ttft_ms") != std::string::npos);
}

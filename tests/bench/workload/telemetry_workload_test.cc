// The workload's "telemetry" section: strict like every other section, absent from the resolved
// form (and so from the hash) unless switched on, and reachable with --set.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "bench/workload/workload_error.h"
#include "bench/workload/workload_parser.h"

using namespace infergate;
using nlohmann::json;

namespace {

constexpr const char* kBase = R"({
  "schema": "infergate.workload/v1",
  "name": "telemetry",
  "target": {"type": "echo"},
  "load": {"mode": "closed", "concurrency": 1, "num_requests": 4}
})";

json base_with(const std::string& merge_patch) {
  json doc = json::parse(kBase);
  doc.merge_patch(json::parse(merge_patch));
  return doc;
}

// The WorkloadError's message for `doc` ("" if it parses).
std::string error_of(const json& doc) {
  try {
    parse_workload(doc, "t.json");
  } catch (const WorkloadError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("telemetry.cupti is off by default and read when set", "[bench][workload]") {
  CHECK_FALSE(parse_workload(json::parse(kBase), "t.json").telemetry.cupti);
  CHECK(parse_workload(base_with(R"({"telemetry": {"cupti": true}})"), "t.json").telemetry.cupti);
  CHECK_FALSE(parse_workload(base_with(R"({"telemetry": {}})"), "t.json").telemetry.cupti);
}

TEST_CASE("bad telemetry fields name the path and what is allowed", "[bench][workload]") {
  const std::string unknown = error_of(base_with(R"({"telemetry": {"cuda": true}})"));
  CHECK(unknown.find("t.json: $.telemetry.cuda: unknown key") != std::string::npos);
  CHECK(unknown.find("allowed: cupti") != std::string::npos);
  CHECK(error_of(base_with(R"({"telemetry": {"cupti": 1}})")) ==
        "t.json: $.telemetry.cupti: expected true or false, got 1");
  CHECK(error_of(base_with(R"({"telemetry": {"cupti": "yes"}})")) ==
        "t.json: $.telemetry.cupti: expected true or false, got \"yes\"");
  CHECK(error_of(base_with(R"({"telemetry": true})")).find("$.telemetry: expected an object") !=
        std::string::npos);
  CHECK(error_of(base_with(R"({"telemtry": {}})")).find("did you mean telemetry?") !=
        std::string::npos);
}

TEST_CASE("CUPTI tracing is in the resolved form and hash only when on", "[bench][workload]") {
  const Workload plain = parse_workload(json::parse(kBase), "t.json");
  const Workload off = parse_workload(base_with(R"({"telemetry": {"cupti": false}})"), "t.json");
  const Workload on = parse_workload(base_with(R"({"telemetry": {"cupti": true}})"), "t.json");
  CHECK_FALSE(plain.resolved.contains("telemetry"));
  CHECK(off.resolved == plain.resolved);
  CHECK(off.hash == plain.hash);
  CHECK(on.resolved.at("telemetry") == json::parse(R"({"cupti": true})"));
  CHECK(on.hash != plain.hash);  // tracing costs the GPU time: not the same measurement
  const Workload again = parse_workload(on.resolved, "resolved.json");
  CHECK(again.resolved == on.resolved);
  CHECK(again.hash == on.hash);
}

TEST_CASE("a --set of telemetry.cupti switches tracing on and is recorded", "[bench][workload]") {
  namespace fs = std::filesystem;
  const fs::path file =
      fs::temp_directory_path() / ("infergate_telemetry_" + std::to_string(::getpid()) + ".json");
  std::ofstream(file) << kBase;
  const Workload w = load_workload_file(file.string(), {"telemetry.cupti=true"});
  CHECK(w.telemetry.cupti);
  CHECK(w.overrides == std::vector<std::string>{"telemetry.cupti=true"});
  CHECK(w.hash == parse_workload(base_with(R"({"telemetry": {"cupti": true}})"), "x").hash);
  CHECK_THROWS_WITH(load_workload_file(file.string(), {"telemetry.cupti=maybe"}),
                    Catch::Contains("$.telemetry.cupti: expected true or false, got \"maybe\"") &&
                        Catch::Contains("(set by --set telemetry.cupti=maybe)"));
  fs::remove(file);
}

// The machine-readable verdicts (docs/reports.md): written, read back, and the key fields are
// those of the comparison.
#include <catch2/catch.hpp>
#include <limits>

#include "gates/report/verdicts_json.h"
#include "tests/gates/report_fixtures.h"

using namespace infergate;
using namespace infergate::report_test;

namespace {

nlohmann::json round_trip(const Comparison& c) {
  return nlohmann::json::parse(comparison_to_json(c).dump());
}

}  // namespace

TEST_CASE("verdicts JSON round-trips the overall label, exit code and headline", "[report]") {
  const Comparison c = sample_comparison();
  const nlohmann::json j = round_trip(c);
  CHECK(j["schema"] == "infergate.verdicts/v1");
  CHECK(j["overall"] == "REGRESSED");
  CHECK(j["exit_code"] == kExitRegression);
  CHECK(j["headline"] == c.headline());
  CHECK(j["baseline"] == "results/baseline.json");
  CHECK(j["candidate"] == "out/candidate run.json");
  CHECK(j["rules"] == "gates/default.json");
  CHECK(j["workload"] == "quickstart");
  CHECK(j["comparable"] == true);
  CHECK(j["warnings"] == nlohmann::json(c.warnings));
  CHECK(j["reproduce"] ==
        "infergate compare results/baseline.json 'out/candidate run.json' --rules "
        "gates/default.json");
  CHECK(j["counts"] == nlohmann::json({{"pass", 1},
                                       {"regressed", 2},
                                       {"improved", 1},
                                       {"inconclusive", 2},
                                       {"blocking", 1},
                                       {"blocking_inconclusive", 1}}));
}

TEST_CASE("verdicts JSON round-trips every evaluation's rule, numbers and verdict", "[report]") {
  const Comparison c = sample_comparison();
  const nlohmann::json j = round_trip(c);
  REQUIRE(j["evaluations"].size() == c.evaluations.size());
  for (size_t i = 0; i < c.evaluations.size(); ++i) {
    const RuleEvaluation& e = c.evaluations[i];
    const nlohmann::json& je = j["evaluations"][i];
    CHECK(je["rule"]["name"] == e.rule.name);
    CHECK(je["rule"]["metric"] == e.rule.metric.text);
    CHECK(je["rule"]["better"] == to_string(e.rule.better));
    CHECK(je["rule"]["severity"] == to_string(e.rule.severity));
    CHECK(je["rule"]["threshold"]["relative"] == 0.05);
    CHECK(je["rule"]["threshold"]["absolute"].is_null());
    CHECK(je["point"].is_null());
    CHECK(je["verdict"] == to_string(e.verdict));
    CHECK(je["reason"] == e.reason);
    CHECK(je["baseline"].get<double>() == e.baseline);
    CHECK(je["candidate"].get<double>() == e.candidate);
    CHECK(je["relative_change"].get<double>() == e.relative_change);
    CHECK(je["interval"] == nlohmann::json({e.interval_lo, e.interval_hi}));
    CHECK(je["effective_threshold"].get<double>() == e.effective_threshold);
    CHECK(je["p_value"].get<double>() == e.p_value);
    CHECK(je["baseline_values"].get<std::vector<double>>() == e.baseline_values);
    CHECK(je["candidate_values"].get<std::vector<double>>() == e.candidate_values);
    CHECK(je["justified"] == e.justified);
    CHECK(je["blocks"] == e.blocks());
    CHECK(je["blocks_as_inconclusive"] == e.blocks_as_inconclusive());
  }
  CHECK(j["evaluations"][0]["rule"]["unit"] == "ms");
  CHECK(j["evaluations"][2]["rule"]["unit"] == "req/s");
}

TEST_CASE("verdicts JSON writes a sweep point and evaluation warnings", "[report]") {
  Comparison c = sample_comparison();
  c.evaluations[0].point = "load.rate=4";
  c.evaluations[0].warnings = {"threshold below the calibrated noise"};
  const nlohmann::json j = round_trip(c);
  CHECK(j["evaluations"][0]["point"] == "load.rate=4");
  CHECK(j["evaluations"][0]["warnings"] ==
        nlohmann::json::array({"threshold below the calibrated noise"}));
}

TEST_CASE("a change against a zero baseline is written as null, keeping the JSON valid",
          "[report]") {
  Comparison c = sample_comparison();
  c.evaluations[0].baseline = 0;
  c.evaluations[0].relative_change = std::numeric_limits<double>::infinity();
  c.evaluations[0].interval_lo = std::numeric_limits<double>::quiet_NaN();
  const nlohmann::json j = round_trip(c);
  CHECK(j["evaluations"][0]["baseline"] == 0.0);
  CHECK(j["evaluations"][0]["relative_change"].is_null());
  CHECK(j["evaluations"][0]["interval"][0].is_null());
}

TEST_CASE("an incomparable comparison's verdicts carry the differences as JSON values",
          "[report]") {
  const nlohmann::json j = round_trip(incomparable_comparison());
  CHECK(j["overall"] == "INCOMPARABLE");
  CHECK(j["exit_code"] == kExitIncomparable);
  CHECK(j["comparable"] == false);
  CHECK(j["evaluations"].empty());
  REQUIRE(j["differences"].size() == 2);
  CHECK(j["differences"][0] == nlohmann::json({{"field", "manifest.host.cpu_model"},
                                               {"baseline", "Intel(R) Xeon(R)"},
                                               {"candidate", "AMD EPYC 7B13"}}));
  CHECK(j["differences"][1]["candidate"] == 8);
}

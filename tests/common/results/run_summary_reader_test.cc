// read_run_summary is the inverse of summary_to_json, metric by metric of the registry: a
// summary with its optional metrics measured and one without them read back to the same JSON,
// and a value of the wrong type is refused with its JSON path.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "common/results/metric_registry.h"
#include "common/results/run_summary.h"
#include "common/results/section_reader.h"

using namespace infergate;
using nlohmann::json;

namespace {

// A distinct value in every member, so a metric read into the wrong one shows.
void fill(int64_t& v, double x, bool) { v = int64_t(x); }
void fill(double& v, double x, bool) { v = x + 0.5; }
void fill(bool& v, double, bool) { v = true; }
void fill(std::optional<double>& v, double x, bool measured) {
  v = measured ? std::optional<double>(x + 0.25) : std::nullopt;
}
void fill(StatSummary& v, double x, bool) {
  v = {int64_t(x), x + 0.1, x + 0.2, x + 0.3, x + 0.4, x + 0.5, x + 0.6, x + 0.7};
}
void fill(std::optional<StatSummary>& v, double x, bool measured) {
  if (!measured) return v.reset();
  fill(v.emplace(), x, measured);
}

RunSummary summary(bool measured) {
  RunSummary s;
  double x = 1;
  for (const MetricInfo& m : run_summary_metrics()) {
    std::visit([&](auto member) { fill(s.*member, x, measured); }, m.member);
    x += 3;
  }
  s.error_classes.push_back({"timeout", 2, "timeout: no complete response"});
  return s;
}

RunSummary read_back(const json& j) {
  return read_run_summary(SectionReader(j, "r.json", "$.summary"));
}

}  // namespace

TEST_CASE("a run summary reads back to the JSON summary_to_json wrote") {
  for (const bool measured : {true, false}) {
    INFO("optional metrics measured: " << measured);
    const json written = summary_to_json(summary(measured));
    CHECK(written["peak_gpu_memory_bytes"].is_null() == !measured);
    const RunSummary back = read_back(written);
    CHECK(summary_to_json(back).dump() == written.dump());  // dump: integers stay integers
    CHECK(back.peak_gpu_memory_bytes.has_value() == measured);
    CHECK(back.ttfot_ms.has_value() == measured);  // an optional distribution: null when not
    CHECK(back.error_classes.empty());             // written apart, as the repetition's "errors"
  }
}

TEST_CASE("a run summary of the wrong type is refused with its path") {
  json j = summary_to_json(summary(true));
  j["ttft_ms"]["p95"] = "slow";
  CHECK_THROWS_WITH(read_back(j), Catch::Contains("r.json: $.summary.ttft_ms.p95") &&
                                      Catch::Contains("expected a number, got string"));
  j = summary_to_json(summary(true));
  j["harness_limited"] = 1;
  CHECK_THROWS_WITH(read_back(j), Catch::Contains("$.summary.harness_limited: expected a "
                                                  "boolean, got number"));
  j = summary_to_json(summary(true));
  j["num_requests"] = 2.5;
  CHECK_THROWS_WITH(read_back(j), Catch::Contains("$.summary.num_requests: 2.5 is not a whole"));
  j = summary_to_json(summary(true));
  j["kl_divergence_mean"] = "low";
  CHECK_THROWS_WITH(read_back(j), Catch::Contains("$.summary.kl_divergence_mean"));
  j = summary_to_json(summary(true));
  j.erase("tpot_ms");
  CHECK_THROWS_WITH(read_back(j), Catch::Contains("$.summary.tpot_ms: expected an object"));
}

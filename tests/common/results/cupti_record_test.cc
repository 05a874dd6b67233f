// The repetition's `cupti` section (common/results/cupti_record.h): its writer gives the
// documented shape (docs/results-schema.md, "CUPTI"), its reader takes back all the writer
// writes, and a member of the wrong type is an error naming its JSON path.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "common/results/cupti_record.h"

using namespace infergate;
using nlohmann::json;

namespace {

CuptiRecord read_back(const json& j) {
  return read_cupti_record({j, "r.json", "$.points[0].repetitions[0].cupti"});
}

// Every optional member filled (a real run fills one of the two).
CuptiRecord full() {
  CuptiRecord c;
  c.available = true;
  c.unavailable_reason = "built without CUPTI";
  c.kernels = {{"void rms_norm_kernel<float>(...)", 1280, 41.7}, {"gemv", 3, 2.0}};
  c.memcpys = {{"[CUDA memcpy HtoD]", 320, 3.2}};
  c.gpu_busy_fraction = 0.62;
  c.dropped_records = 7;
  return c;
}

CuptiRecord empty() {
  CuptiRecord c;
  c.available = false;
  return c;
}

}  // namespace

TEST_CASE("the cupti section is written in the documented shape") {
  const json expected = json::parse(R"json({
    "enabled": true, "available": true, "unavailable_reason": "built without CUPTI",
    "kernels": [{"name": "void rms_norm_kernel<float>(...)", "count": 1280, "total_ms": 41.7},
                {"name": "gemv", "count": 3, "total_ms": 2.0}],
    "memcpys": [{"name": "[CUDA memcpy HtoD]", "count": 320, "total_ms": 3.2}],
    "gpu_busy_fraction": 0.62, "dropped_records": 7})json");
  CHECK(to_json(full()).dump() == expected.dump());  // dump() tells 3 from 3.0
  const json none = json::parse(R"json({
    "enabled": true, "available": false, "unavailable_reason": null, "kernels": [],
    "memcpys": [], "gpu_busy_fraction": null, "dropped_records": 0})json");
  CHECK(to_json(empty()).dump() == none.dump());
}

TEST_CASE("the cupti section reads back what its writer wrote") {
  for (const CuptiRecord& c : {full(), empty()}) {
    const json written = to_json(c);
    INFO(written.dump());
    CHECK(to_json(read_back(written)) == written);
    const json text = json::parse(written.dump());  // as a file holds it
    CHECK(to_json(read_back(text)).dump() == written.dump());
  }
}

TEST_CASE("a cupti section member of the wrong type names its path") {
  json j = to_json(full());
  j["kernels"][1]["total_ms"] = "2";
  CHECK_THROWS_AS(read_back(j), ResultsError);
  CHECK_THROWS_WITH(read_back(j),
                    "r.json: $.points[0].repetitions[0].cupti.kernels[1].total_ms: expected a "
                    "number, got string");
  j = to_json(full());
  j["gpu_busy_fraction"] = json::array();
  CHECK_THROWS_WITH(read_back(j), Catch::Contains(".cupti.gpu_busy_fraction: expected a number"));
  j = to_json(full());
  j["dropped_records"] = -1;
  CHECK_THROWS_WITH(read_back(j), Catch::Contains(".cupti.dropped_records: expected a count"));
  CHECK_THROWS_WITH(read_back("yes"),
                    "r.json: $.points[0].repetitions[0].cupti: expected an object, got string");
}

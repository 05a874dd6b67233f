// The repetition's "load_ranks" section, a row per load rank: what the writer writes, the reader
// reads back to the same JSON, and a value of the wrong type is refused with its JSON path.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "common/results/load_rank_record.h"

using namespace infergate;
using nlohmann::json;

namespace {

std::vector<LoadRankRecord> rows() {
  LoadRankRecord zero;
  zero.host = "node-a";
  zero.requests = 40;
  zero.send_lag_ms = {0.01, 0.25};
  LoadRankRecord one;
  one.rank = 1;
  one.host = "";
  one.requests = 39;
  one.clock_offset_ms = -1234.5;
  one.clock_drift_ms = 0.002;
  one.clock_uncertainty_ms = 0.03;
  one.send_lag_ms = {0.02, 1.5};
  return {zero, one};
}

json read_back(const json& j) {
  return load_ranks_to_json(read_load_ranks(SectionReader(j, "r.json", "$.load_ranks")));
}

}  // namespace

TEST_CASE("load rank rows read back to the JSON they were written as") {
  const json written = load_ranks_to_json(rows());
  REQUIRE(written.size() == 2);
  CHECK(read_back(written).dump() == written.dump());  // dump: integers stay integers
  CHECK(read_back(json::array()) == json::array());
  CHECK(to_json(rows()[1]).dump() ==
        R"({"clock_drift_ms":0.002,"clock_offset_ms":-1234.5,"clock_uncertainty_ms":0.03,)"
        R"("host":"","rank":1,"requests":39,"send_lag_ms":{"max":1.5,"p50":0.02}})");
}

TEST_CASE("a load rank row of the wrong type is refused with its path") {
  json j = load_ranks_to_json(rows());
  j[1]["requests"] = "39";
  CHECK_THROWS_WITH(read_back(j), Catch::Contains("r.json: $.load_ranks[1].requests") &&
                                      Catch::Contains("expected a number, got string"));
  j = load_ranks_to_json(rows());
  j[0]["send_lag_ms"] = 0.5;
  CHECK_THROWS_WITH(read_back(j), Catch::Contains("$.load_ranks[0].send_lag_ms: expected an "
                                                  "object, got number"));
  CHECK_THROWS_WITH(read_back(json::object()),
                    Catch::Contains("$.load_ranks: expected an array, got object"));
}

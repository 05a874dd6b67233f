// The repetition's "search" section: what the writer writes, probe summaries and cliffs
// included, reads back to the same JSON, alone and inside a whole results file; a status, role,
// bracket or summary probe the reader cannot trust is refused naming its field.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "common/results/results_file.h"
#include "common/results/search_record.h"

using namespace infergate;
using nlohmann::json;

namespace {

SearchProbeRecord probe(int64_t index, double load, const char* role, bool meets) {
  SearchProbeRecord p;
  p.index = index;
  p.load = load;
  p.role = role;
  p.seed = 1000 + uint64_t(index);
  if (meets) p.slo_ratio = 0.6 + 0.1 * double(index);  // null: too many requests failed
  p.meets = meets;
  p.seconds = 12.5;
  p.summary.num_requests = 1000;
  p.summary.num_completed = 1000;
  p.summary.good_fraction = meets ? 0.995 : 0.4;
  p.summary.ttft_ms = {1000, 30, 5, 25, 40, 50, 71, 90};
  p.summary.tpot_ms = {1000, 12, 8, 11, 14, 15, 18, 20};
  return p;
}

// A found capacity, or (not bracketed) none.
SearchRecord search(bool found) {
  SearchRecord s;
  s.field = "load.rate";
  s.unit = "req/s";
  s.goodput_share = 0.99;
  s.requests_per_probe = 1000;
  s.precision = 0.05;
  s.status = found ? "found" : "not_bracketed";
  s.verdict = found ? "capacity 84.4 req/s at the SLO for 99% of requests, bracket [82.5, 86.2]"
                    : "the SLO held at 120 req/s, the highest load searched";
  s.probes = {probe(0, 60, "from", true), probe(1, 120, "to", !found)};
  if (found) {
    s.probes.push_back(probe(2, 90, "bisect", false));
    s.probes.push_back(probe(3, 82.5, "bisect", true));
    s.probes.push_back(probe(4, 82.5, "reprobe", true));
    s.capacity = 84.4;
    s.low = 82.5;
    s.high = 86.2;
    s.summary_probe = 3;
    s.cliffs = {{60, 120, 71, 1732, 24.4}};
  }
  s.seconds = 61.25;
  return s;
}

json read_back(const json& j) {
  return to_json(read_search_record(SectionReader(j, "r.json", "$.search")));
}

}  // namespace

TEST_CASE("a search record reads back to the JSON it was written as") {
  for (const bool found : {true, false}) {
    INFO("found: " << found);
    const json written = to_json(search(found));
    CHECK(written["capacity"].is_null() == !found);
    CHECK(written["low"].is_null() == !found);
    CHECK(written["summary_probe"].is_null() == !found);
    CHECK(read_back(written).dump() == written.dump());  // dump: integers stay integers
  }
}

TEST_CASE("a search record is written in the results file's shape") {
  const json j = to_json(search(true));
  CHECK(j["requests_per_probe"].is_number_integer());
  CHECK(j["summary_probe"] == 3);
  CHECK(j["probes"][2]["slo_ratio"].is_null());
  CHECK(j["probes"][3]["seed"] == 1003);
  CHECK(j["probes"][1]["summary"] == summary_to_json(search(true).probes[1].summary));
  CHECK(j["cliffs"].dump() ==
        R"([{"factor":24.4,"from_load":60.0,"from_ttft_p99_ms":71.0,"to_load":120.0,)"
        R"("to_ttft_p99_ms":1732.0}])");
}

TEST_CASE("a search record the gates cannot trust is refused naming the field") {
  json j = to_json(search(true));
  j["status"] = "done";
  CHECK_THROWS_WITH(read_back(j), Catch::Contains("r.json: $.search.status") &&
                                      Catch::Contains("\"done\" is not one of found, max_probes"));
  j = to_json(search(true));
  j["probes"][2]["role"] = "guess";
  CHECK_THROWS_WITH(read_back(j), Catch::Contains("$.search.probes[2].role") &&
                                      Catch::Contains("\"guess\" is not one of from, to"));
  j = to_json(search(true));
  j["low"] = 90.0;
  CHECK_THROWS_WITH(read_back(j), Catch::Contains("$.search.low") &&
                                      Catch::Contains("low end is above its high end"));
  for (const int bad : {5, -1}) {
    j = to_json(search(true));
    j["summary_probe"] = bad;
    CHECK_THROWS_WITH(read_back(j), Catch::Contains("$.search.summary_probe") &&
                                        Catch::Contains("not the index of one of its probes"));
  }
  j = to_json(search(true));
  j["probes"][0]["summary"]["tpot_ms"]["p50"] = "fast";
  CHECK_THROWS_WITH(read_back(j), Catch::Contains("$.search.probes[0].summary.tpot_ms.p50"));
}

TEST_CASE("a repetition's search section survives a whole results file, and is checked there") {
  ResultsFile r = load_results(std::string(INFERGATE_SOURCE_DIR) +
                               "/tests/gates/data/quickstart-baseline.json");
  r.points[0].repetitions[0].search = search(true);
  const json doc = results_to_json(r);
  REQUIRE(doc["points"][0]["repetitions"][0].contains("search"));
  CHECK_FALSE(doc["points"][0]["repetitions"][1].contains("search"));
  const ResultsFile back = parse_results(doc, "back.json");
  REQUIRE(back.points[0].repetitions[0].search);
  CHECK(to_json(*back.points[0].repetitions[0].search) == to_json(search(true)));
  CHECK_FALSE(back.points[0].repetitions[1].search);

  json bad = doc;
  bad["points"][0]["repetitions"][0]["search"]["status"] = "maybe";
  CHECK_THROWS_WITH(parse_results(bad, "bad.json"),
                    Catch::Contains("bad.json: $.points[0].repetitions[0].search.status"));
}

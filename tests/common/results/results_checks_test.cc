// What the results reader refuses (docs/results-schema.md, "What a reader checks"): every case
// is a file the gates once misread; each must be an input error naming the field.
#include <catch2/catch.hpp>

#include "common/io/json_file.h"
#include "common/results/results_file.h"
#include "tests/gates/synthetic_results.h"

using namespace infergate;
using namespace infergate::gates_test;

namespace {

nlohmann::json fixture_doc() {
  return read_json_file(std::string(INFERGATE_SOURCE_DIR) +
                        "/tests/gates/data/quickstart-baseline.json");
}

nlohmann::json synthetic() { return results_doc({{{"tpot_ms.p95", 20}}, {{"tpot_ms.p95", 21}}}); }

}  // namespace

TEST_CASE("the real fixtures pass every check") {
  for (const char* name :
       {"quickstart-baseline.json", "quickstart-candidate.json", "rate-sweep.json"}) {
    INFO(name);
    CHECK_NOTHROW(load_results(std::string(INFERGATE_SOURCE_DIR) + "/tests/gates/data/" + name));
  }
}

TEST_CASE("a metric of the wrong type is an error naming the field, not a missing metric") {
  nlohmann::json doc = synthetic();
  doc["points"][0]["repetitions"][1]["summary"]["tpot_ms"]["p95"] = "21";
  CHECK_THROWS_WITH(parse_results(doc, "r.json"),
                    "r.json: $.points[0].repetitions[1].summary.tpot_ms.p95: expected a number, "
                    "got string");
  doc = synthetic();
  doc["points"][0]["repetitions"][0]["summary"]["tpot_ms"] = 20;
  CHECK_THROWS_WITH(parse_results(doc, "r.json"),
                    Catch::StartsWith("r.json: $.points[0].repetitions[0].summary.tpot_ms: "
                                      "expected an object of statistics"));
  doc = synthetic();
  doc["incomplete"] = "no";
  CHECK_THROWS_WITH(parse_results(doc, "r.json"),
                    "r.json: $.incomplete: expected boolean, got string");
  doc = synthetic();
  doc["points"][0]["sweep"] = {{"field", 4}};
  CHECK_THROWS_WITH(parse_results(doc, "r.json"),
                    Catch::StartsWith("r.json: $.points[0].sweep: expected null or"));
  doc = synthetic();
  doc["points"][0]["repetitions"][0]["summary"]["request_throughput_rps"] = "fast";
  CHECK_THROWS_WITH(parse_results(doc, "r.json"),
                    Catch::Contains("summary.request_throughput_rps: expected a number, got "
                                    "string"));
}

TEST_CASE("a negative latency is refused rather than judged an improvement") {
  nlohmann::json doc = results_doc({{{"tpot_ms.p95", -20}}});
  CHECK_THROWS_WITH(parse_results(doc, "r.json"),
                    Catch::Contains("$.points[0].repetitions[0].summary.tpot_ms.p95: -20 is out of "
                                    "range (allowed: 0 .. 10000000000)"));
}

TEST_CASE("a latency too large to compute with is refused rather than giving a NaN interval") {
  nlohmann::json doc = results_doc({{{"tpot_ms.p95", 1e308}}});
  CHECK_THROWS_WITH(parse_results(doc, "r.json"),
                    Catch::Contains("summary.tpot_ms.p95: 1e+308 is out of range"));
}

TEST_CASE("an edited workload that kept its old hash is refused") {
  nlohmann::json doc = fixture_doc();
  doc["workload"]["load"]["rate"] = 80.0;
  CHECK_THROWS_WITH(parse_results(doc, "r.json"),
                    Catch::StartsWith("r.json: $.workload_hash: 'fnv1a64:") &&
                        Catch::Contains("is not the hash of the embedded $.workload"));
  doc["workload"]["load"]["rate"] = 8.0;  // a label is not part of the identity
  doc["workload"]["description"] = "relabelled";
  CHECK_NOTHROW(parse_results(doc, "r.json"));
}

TEST_CASE("a summary that disagrees with its own request records is refused") {
  nlohmann::json doc = fixture_doc();
  nlohmann::json& rep = doc["points"][0]["repetitions"][1];
  for (auto& [stat, value] : rep["summary"]["tpot_ms"].items()) {
    if (stat != "count") value = value.get<double>() / 2;  // twice as fast, in order
  }
  CHECK_THROWS_WITH(parse_results(doc, "r.json"),
                    Catch::Contains("$.points[0].repetitions[1].summary.tpot_ms.") &&
                        Catch::Contains("disagrees with the request records"));
  doc = fixture_doc();
  doc["points"][0]["repetitions"][0]["summary"]["num_errors"] = 1;
  doc["points"][0]["repetitions"][0]["summary"]["num_completed"] = 39;
  CHECK_THROWS_WITH(parse_results(doc, "r.json"),
                    Catch::Contains("summary.num_completed: 39 disagrees with the request records "
                                    "(40 ok)"));
}

TEST_CASE("a point summary that is not the mean of its repetitions is refused") {
  nlohmann::json doc = synthetic();
  doc["points"][0]["summary"]["tpot_ms"]["p95"] = 5.0;
  CHECK_THROWS_WITH(parse_results(doc, "r.json"),
                    Catch::Contains("$.points[0].summary.tpot_ms.p95: 5 is not the mean of its "
                                    "repetitions (20.5)"));
  doc = synthetic();
  doc["points"][0]["summary"]["ttft_ms"] = {{"p95", 1.0}};
  CHECK_THROWS_WITH(parse_results(doc, "r.json"),
                    Catch::Contains("$.points[0].summary.ttft_ms: is in no repetition's summary"));
}

TEST_CASE("malformed request records name the record and the field") {
  nlohmann::json doc = fixture_doc();
  doc["points"][0]["repetitions"][0]["requests"][3]["first_token_ms"] = -5;
  CHECK_THROWS_WITH(parse_results(doc, "r.json"),
                    Catch::Contains("$.points[0].repetitions[0].requests[3].first_token_ms: -5 is "
                                    "out of range"));
  doc = fixture_doc();
  doc["points"][0]["repetitions"][0]["requests"][3]["status"] = "fine";
  CHECK_THROWS_WITH(parse_results(doc, "r.json"),
                    Catch::Contains("requests[3].status: expected one of ok, error, aborted"));
}

TEST_CASE("request counts must add up and error classes must match num_errors") {
  nlohmann::json doc = results_doc(
      {{{"num_requests", 10}, {"num_completed", 8}, {"num_errors", 1}, {"num_aborted", 0}}});
  CHECK_THROWS_WITH(parse_results(doc, "r.json"),
                    Catch::Contains("summary.num_requests: 10 is not num_completed + num_errors + "
                                    "num_aborted (8 + 1 + 0)"));
  doc = results_doc(
      {{{"num_requests", 10}, {"num_completed", 8}, {"num_errors", 2}, {"num_aborted", 0}}});
  doc["points"][0]["repetitions"][0]["errors"] = {
      {{"class", "timeout"}, {"count", 1}, {"first_message", "timeout: ..."}}};
  CHECK_THROWS_WITH(parse_results(doc, "r.json"),
                    Catch::Contains("$.points[0].repetitions[0].errors: its classes count 1 failed "
                                    "requests, but the summary's num_errors is 2"));
}

TEST_CASE("a point's failed requests are summed over repetitions and described by class") {
  nlohmann::json doc = results_doc(
      {{{"num_requests", 12}, {"num_completed", 0}, {"num_errors", 12}, {"num_aborted", 0}},
       {{"num_requests", 12}, {"num_completed", 0}, {"num_errors", 12}, {"num_aborted", 0}}});
  for (nlohmann::json& rep : doc["points"][0]["repetitions"]) {
    rep["errors"] = {{{"class", "connection refused"},
                      {"count", 12},
                      {"first_message",
                       "cannot connect to http://127.0.0.1:9: Connection "
                       "refused"}}};
  }
  const ResultsFile r = parse_results(doc, "r.json");
  const PointErrors e = point_errors(r.points[0]);
  CHECK(e.requests == 24);
  CHECK(e.errors == 24);
  CHECK(e.share() == 1.0);
  CHECK(describe_errors(e) ==
        "24 of 24 requests failed: connection refused: 24 (first: cannot connect to "
        "http://127.0.0.1:9: Connection refused)");
  CHECK(results_to_json(r)["points"][0]["repetitions"][0]["errors"] ==
        doc["points"][0]["repetitions"][0]["errors"]);
}

// load.search (docs/workload-schema.md, "Capacity search"): the probes give the load and the
// count, so what they would contradict is refused; every default lands in the resolved form, and
// every bad value is named by its path.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "bench/workload/workload_error.h"
#include "bench/workload/workload_parser.h"
#include "tests/bench/workload/workload_error_of.h"

namespace infergate {
namespace {

using nlohmann::json;

json search_workload(const std::string& mode = "open") {
  json doc = json::parse(R"({"schema": "infergate.workload/v1", "name": "capacity-test",
    "target": {"type": "echo"},
    "dataset": {"type": "synthetic", "input_tokens": {"dist": "fixed", "value": 8},
                "output_tokens": {"dist": "fixed", "value": 4}},
    "slo": {"ttft_ms": 100}})");
  doc["load"] = {{"mode", mode}, {"search", {{"from", 1}, {"to", 64}}}};
  return doc;
}

}  // namespace

TEST_CASE("a search resolves its defaults, sizes its probes by the share and leaves the rate out") {
  const Workload w = parse_workload(search_workload(), "w.json", "");
  REQUIRE(w.load.search);
  CHECK(w.load.search->goodput_share == 0.99);
  CHECK(w.load.search->requests_per_probe == 1000);  // ten requests past the share's rank
  CHECK(w.load.num_requests == 1000);                // one probe's size
  const json& load = w.resolved["load"];
  CHECK(load["search"] == json{{"from", 1.0},
                               {"to", 64.0},
                               {"goodput_share", 0.99},
                               {"requests_per_probe", 1000},
                               {"precision", 0.05},
                               {"max_probes", 20},
                               {"cliff_factor", 3.0}});
  CHECK_FALSE(load.contains("rate"));
  CHECK_FALSE(load.contains("num_requests"));

  json share = search_workload();
  share["load"]["search"]["goodput_share"] = 0.9;
  CHECK(parse_workload(share, "w.json", "").load.search->requests_per_probe == 100);
  json fixed = search_workload("closed");
  fixed["load"]["search"] = {{"at", {8, 2, 4}}, {"requests_per_probe", 50}, {"goodput_share", 0.9}};
  const Workload f = parse_workload(fixed, "w.json", "");
  CHECK(f.load.search->at == std::vector<double>{2, 4, 8});  // ascending
  CHECK(f.resolved["load"]["search"]["at"] == json{2, 4, 8});
  CHECK_FALSE(f.resolved["load"]["search"].contains("precision"));
  // A workload without a search keeps its resolved form (and hash).
  json plain = search_workload();
  plain["load"] = {{"mode", "open"}, {"rate", 2}, {"num_requests", 4}};
  CHECK_FALSE(parse_workload(plain, "w.json", "").resolved["load"].contains("search"));
}

TEST_CASE("a search's bad values are refused by their path, with what is allowed") {
  struct Case {
    const char* what;
    std::function<void(json&)> edit;
    std::vector<const char*> expected;
  };
  const std::vector<Case> cases = {
      {"no slo",
       [](json& d) { d["slo"] = json::object(); },
       {"$.load.search", "needs an slo with at least one bound"}},
      {"to below from",
       [](json& d) { d["load"]["search"]["to"] = 1; },
       {"$.load.search.to", "must be above from"}},
      {"no to", [](json& d) { d["load"]["search"].erase("to"); }, {"$.load.search.to", "missing"}},
      {"zero rate",
       [](json& d) { d["load"]["search"]["from"] = 0; },
       {"$.load.search.from", "> 0"}},
      {"fractional users",
       [](json& d) {
         d["load"]["mode"] = "closed";
         d["load"]["search"]["from"] = 1.5;
       },
       {"$.load.search.from", "integer"}},
      {"share too high",
       [](json& d) { d["load"]["search"]["goodput_share"] = 1; },
       {"$.load.search.goodput_share", "[0.5, 0.9999]"}},
      {"too few requests",
       [](json& d) { d["load"]["search"]["requests_per_probe"] = 50; },
       {"$.load.search.requests_per_probe", "[100, 1000000]",
        "at least one request past the share's rank"}},
      {"too many requests",
       [](json& d) {
         d["load"]["search"]["requests_per_probe"] = 100000;
         d["load"]["search"]["max_probes"] = 11;
       },
       {"$.load.search.requests_per_probe", "must be <= 1000000"}},
      {"slow probe",
       [](json& d) { d["load"]["search"]["from"] = 0.001; },
       {"$.load.search.requests_per_probe", "would send for more than 86400 s"}},
      {"precision",
       [](json& d) { d["load"]["search"]["precision"] = 0; },
       {"$.load.search.precision", "[0.001, 1]"}},
      {"max_probes",
       [](json& d) { d["load"]["search"]["max_probes"] = 2; },
       {"$.load.search.max_probes", "[3, 100]"}},
      {"cliff_factor",
       [](json& d) { d["load"]["search"]["cliff_factor"] = 1; },
       {"$.load.search.cliff_factor", "> 1"}},
      {"one fixed load",
       [](json& d) {
         d["load"]["search"] = {{"at", {4}}};
       },
       {"$.load.search.at", "an array of 2 to 16 distinct loads"}},
      {"a fixed load twice",
       [](json& d) {
         d["load"]["search"] = {{"at", {4, 8, 4}}};
       },
       {"$.load.search.at[2]", "given twice"}},
      {"at with from",
       [](json& d) {
         d["load"]["search"]["at"] = {4, 8};
       },
       {"$.load.search.from", "not used with load.search.at"}},
      {"a rate beside it",
       [](json& d) { d["load"]["rate"] = 4; },
       {"$.load.rate", "not used with load.search"}},
      {"a count beside it",
       [](json& d) { d["load"]["num_requests"] = 4; },
       {"$.load.num_requests", "not used with load.search"}},
      {"a ramp beside it",
       [](json& d) {
         d["load"]["ramp"] = {{"from", 1}, {"to", 2}};
       },
       {"$.load.search", "not used with a ramp"}},
      {"a rate sweep",
       [](json& d) {
         d["sweep"] = {{"field", "load.rate"}, {"values", {1, 2}}};
       },
       {"$.sweep.field", "load.search gives it"}},
      {"sessions",
       [](json& d) { d["load"]["mode"] = "sessions"; },
       {"$.load.search", "not used with mode \"sessions\""}},
      {"a typo",
       [](json& d) { d["load"]["search"]["precison"] = 0.1; },
       {"$.load.search.precison", "did you mean precision"}},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    json doc = search_workload();
    c.edit(doc);
    const std::string error = workload_error_of(doc);
    for (const char* part : c.expected) CHECK_THAT(error, Catch::Contains(part));
  }
}

}  // namespace infergate

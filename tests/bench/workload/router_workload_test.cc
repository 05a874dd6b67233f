// The router target and the faults section in workload files: defaults, the resolved form, the
// replicas sweep, and the refusals.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/workload/workload_error.h"
#include "bench/workload/workload_parser.h"

namespace infergate {
namespace {

using nlohmann::json;

json router_doc(const json& patch) {
  json doc = {{"schema", "infergate.workload/v1"},
              {"name", "dp"},
              {"target", {{"type", "router"}, {"model", {{"preset", "tiny"}}}}},
              {"load", {{"mode", "closed"}, {"num_requests", 4}}}};
  doc.merge_patch(patch);
  return doc;
}

TEST_CASE("router targets: defaults, the resolved form and faults") {
  const Workload w = parse_workload(router_doc(json::object()), "w.json");
  CHECK(w.target.router.replicas == 2);
  CHECK(w.target.router.policy == "prefix-aware");
  CHECK(w.resolved["target"]["router"] == json{{"replicas", 2},
                                               {"policy", "prefix-aware"},
                                               {"restart_delay_s", 1.0},
                                               {"pin_replicas", false}});
  CHECK_FALSE(w.resolved.contains("faults"));
  const Workload f = parse_workload(router_doc({{"target", {{"router", {{"replicas", 3}}}}},
                                                {"faults",
                                                 {{{"kill_replica", 2}, {"at_s", 1.5}},
                                                  {{"kill_replica", 0}, {"after_requests", 3}}}}}),
                                    "w.json");
  REQUIRE(f.faults.size() == 2);
  CHECK(f.faults[0].at_s == 1.5);
  CHECK(f.faults[1].after_requests == 3);
  CHECK(f.resolved["faults"] ==
        json{{{"kill_replica", 2}, {"at_s", 1.5}}, {{"kill_replica", 0}, {"after_requests", 3}}});
  CHECK(parse_workload(f.resolved, "resolved.json").resolved == f.resolved);
  CHECK(f.hash != w.hash);
  const Workload sweep = parse_workload(
      router_doc({{"sweep", {{"field", "target.router.replicas"}, {"values", {1, 2, 4}}}}}),
      "w.json");
  CHECK(sweep.sweep->values == std::vector<double>{1, 2, 4});

  // Disaggregated: in the resolved form (and the hash) only when set.
  const Workload pd = parse_workload(
      router_doc(
          {{"target",
            {{"router", {{"replicas", 3}, {"prefill_replicas", 1}, {"kv_read_rate_mb_s", 250}}}}},
           {"sweep", {{"field", "target.router.prefill_replicas"}, {"values", {0, 1, 2}}}}}),
      "w.json");
  CHECK(pd.target.router.prefill_replicas == 1);
  CHECK(pd.target.router.kv_read_rate_mb_s == 250);
  CHECK(pd.resolved["target"]["router"]["prefill_replicas"] == 1);
  CHECK(pd.resolved["target"]["router"]["kv_read_rate_mb_s"] == 250);
  CHECK_FALSE(w.resolved["target"]["router"].contains("prefill_replicas"));
  CHECK(parse_workload(pd.resolved, "resolved.json").resolved == pd.resolved);
  const Workload slow = parse_workload(
      router_doc(
          {{"target", {{"router", {{"prefill_replicas", 1}}}}},
           {"sweep", {{"field", "target.router.kv_read_rate_mb_s"}, {"values", {0, 50.5}}}}}),
      "w.json");
  CHECK(slow.sweep->values == std::vector<double>{0, 50.5});
}

TEST_CASE("router targets and faults: bad fields are refused at their JSON path") {
  const std::vector<std::pair<json, std::vector<std::string>>> cases = {
      {{{"target", {{"router", {{"replicas", 0}}}}}},
       {"$.target.router.replicas: 0 is out of range", "[1, 64]"}},
      {{{"target", {{"router", {{"replicas", 1000}}}}}}, {"$.target.router.replicas: 1000"}},
      {{{"target", {{"router", {{"policy", "random"}}}}}}, {"$.target.router.policy", "random"}},
      {{{"target", {{"router", {{"restart_delay_s", 0}}}}}}, {"$.target.router.restart_delay_s"}},
      {{{"target", {{"router", {{"replica", 2}}}}}}, {"$.target.router.replica"}},
      {{{"target", {{"url", "http://x:1"}}}}, {"$.target.url: not used with type \"router\""}},
      {{{"faults", {{{"kill_replica", 2}, {"at_s", 1}}}}},
       {"$.faults[0].kill_replica: 2 is out of range", "[0, 1]"}},
      {{{"faults", {{{"kill_replica", 0}}}}}, {"$.faults[0]", "exactly one of at_s"}},
      {{{"faults", {{{"kill_replica", 0}, {"at_s", 1}, {"after_requests", 2}}}}},
       {"exactly one of at_s"}},
      {{{"faults", {{{"kill_replica", 0}, {"at_s", -1}}}}}, {"$.faults[0].at_s"}},
      {{{"faults", {{{"kill_replica", 0}, {"after_requests", 0}}}}},
       {"$.faults[0].after_requests"}},
      {{{"faults", {{{"kill", 0}, {"at_s", 1}}}}}, {"$.faults[0].kill"}},
      {{{"faults", 3}}, {"$.faults", "an array of at most 64 faults"}},
      {{{"sweep", {{"field", "target.router.replicas"}, {"values", {1, 100}}}}},
       {"$.sweep.values[1]: 100 is out of range", "<= 64 (replicas)"}},
      {{{"target", {{"router", {{"prefill_replicas", 2}}}}}},
       {"$.target.router.prefill_replicas: 2 is out of range", "[0, router.replicas - 1 = 1]"}},
      {{{"target", {{"router", {{"kv_read_rate_mb_s", -1}}}}}},
       {"$.target.router.kv_read_rate_mb_s", "MB/s; 0: no cap"}},
      {{{"sweep", {{"field", "target.router.prefill_replicas"}, {"values", {0, 2}}}}},
       {"$.sweep.values[1]: 2 is out of range", "<= 1 (prefill workers"}},
      {{{"target", {{"router", {{"replicas", 3}, {"prefill_replicas", 1}}}}},
        {"sweep", {{"field", "target.router.replicas"}, {"values", {1, 2}}}}},
       {"$.sweep.values", "above router.prefill_replicas (1)"}},
      {{{"target", {{"router", {{"replicas", 2}, {"prefill_replicas", 1}}}}},
        {"faults", {{{"kill_replica", 1}, {"at_s", 1}}}}},
       {"$.faults[0].kill_replica: 1 is out of range", "[0, 0]"}},
      {{{"sweep", {{"field", "target.router.replicas"}, {"values", {1, 2}}}},
        {"faults", {{{"kill_replica", 1}, {"at_s", 1}}}}},
       {"$.faults[0].kill_replica: 1 is out of range", "[0, 0]"}},
  };
  for (const auto& [patch, expected] : cases) {
    INFO(patch.dump());
    try {
      parse_workload(router_doc(patch), "w.json");
      FAIL("accepted");
    } catch (const WorkloadError& e) {
      for (const std::string& part : expected) CHECK_THAT(e.what(), Catch::Contains(part));
    }
  }
}

TEST_CASE("faults and the replicas sweep are refused on other target types") {
  json engine = router_doc(json::object());
  engine["target"]["type"] = "engine";
  json faulty = engine;
  faulty["faults"] = {{{"kill_replica", 0}, {"at_s", 1}}};
  CHECK_THROWS_WITH(parse_workload(faulty, "w.json"),
                    Catch::Contains("$.faults") && Catch::Contains("router target"));
  json sweep = engine;
  sweep["sweep"] = {{"field", "target.router.replicas"}, {"values", {1, 2}}};
  CHECK_THROWS_WITH(parse_workload(sweep, "w.json"),
                    Catch::Contains("$.sweep.field") && Catch::Contains("load.concurrency"));
  json router_key = engine;
  router_key["target"]["router"] = {{"replicas", 2}};
  CHECK_THROWS_WITH(parse_workload(router_key, "w.json"),
                    Catch::Contains("$.target.router: not used with type \"engine\""));
}

}  // namespace
}  // namespace infergate

// The throughput frontier of a load sweep or a capacity search: which loads no other load beats
// on tokens per user and tokens per device, how devices are counted from the workload, and
// which loads met the SLO at the workload's goodput share.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "common/results/frontier.h"

using namespace infergate;
using nlohmann::json;

namespace {

// A point's summary: TPOT p50 1000 / tokens_per_user ms.
json summary(double tokens_per_user, double output_tps, double good_fraction = 1) {
  return {{"tpot_ms", {{"p50", 1000 / tokens_per_user}}},
          {"output_throughput_tps", output_tps},
          {"good_fraction", good_fraction}};
}

PointResult point(double rate, json s, const char* field = "load.rate") {
  PointResult p;
  p.sweep = {{"field", field}, {"value", rate}};
  p.summary = std::move(s);
  p.repetitions.push_back({});
  return p;
}

json engine_workload() { return {{"target", {{"type", "engine"}}}, {"slo", {{"ttft_ms", 500.0}}}}; }

ResultsFile sweep(std::vector<PointResult> points, json workload = engine_workload()) {
  ResultsFile r;
  r.source = "sweep.json";
  r.workload = std::move(workload);
  r.points = std::move(points);
  return r;
}

// (tokens per user, tokens per device) of rates 1, 2, 4, 8: rate 4 is beaten by rate 2 on both.
ResultsFile four_rates() {
  return sweep({point(8, summary(40, 600)), point(1, summary(100, 200)), point(4, summary(50, 350)),
                point(2, summary(80, 400))});
}

std::vector<double> loads(const std::vector<const FrontierPoint*>& line) {
  std::vector<double> out;
  for (const FrontierPoint* p : line) out.push_back(p->load);
  return out;
}

}  // namespace

TEST_CASE("frontier: a sweep's dominated loads are off it, the rest on it in order of x") {
  const std::optional<Frontier> f = frontier_of(four_rates());
  REQUIRE(f);
  CHECK(f->source == "sweep");
  REQUIRE(f->points.size() == 4);
  std::vector<double> order;
  for (const FrontierPoint& p : f->points) order.push_back(p.load);
  CHECK(order == std::vector<double>{1, 2, 4, 8});  // in load order, not the file's
  CHECK(f->points[0].on_frontier);
  CHECK(f->points[1].on_frontier);
  CHECK_FALSE(f->points[2].on_frontier);  // (50, 350) < (80, 400)
  CHECK(f->points[3].on_frontier);
  CHECK(f->points[0].label == "load.rate=1.0");
  CHECK(f->points[0].tokens_per_user_s == Approx(100));
  CHECK(f->points[0].tokens_per_device_s == Approx(200));
  CHECK(loads(frontier_line(*f)) == std::vector<double>{8, 2, 1});  // by tokens per user
}

TEST_CASE("frontier: equal points both stay on it, equal x with less y does not") {
  const std::optional<Frontier> f =
      frontier_of(sweep({point(1, summary(100, 200)), point(2, summary(100, 200)),
                         point(3, summary(100, 150)), point(4, summary(50, 200))}));
  REQUIRE(f);
  CHECK(f->points[0].on_frontier);
  CHECK(f->points[1].on_frontier);
  CHECK_FALSE(f->points[2].on_frontier);  // same tokens per user, fewer per device
  CHECK_FALSE(f->points[3].on_frontier);  // same tokens per device, fewer per user
  CHECK(frontier_line(*f).size() == 2);
}

TEST_CASE("frontier: none without two usable points of a load sweep") {
  // TPOT p50 0 (single-token answers) or missing: no tokens per user.
  json no_tpot = summary(100, 200);
  no_tpot["tpot_ms"]["p50"] = 0.0;
  json missing = summary(100, 200);
  missing.erase("tpot_ms");
  CHECK_FALSE(frontier_of(sweep({point(1, summary(100, 200)), point(2, no_tpot)})));
  CHECK_FALSE(frontier_of(sweep({point(1, summary(100, 200)), point(2, missing)})));
  CHECK(frontier_of(
      sweep({point(1, summary(100, 200)), point(2, missing), point(4, summary(50, 300))})));
  // One point, and a sweep over something other than the load.
  CHECK_FALSE(frontier_of(sweep({point(1, summary(100, 200))})));
  CHECK_FALSE(frontier_of(sweep({point(1, summary(100, 200), "target.router.replicas"),
                                 point(2, summary(90, 300), "target.router.replicas")})));
  PointResult unswept = point(1, summary(100, 200));
  unswept.sweep = nullptr;
  CHECK_FALSE(frontier_of(sweep({unswept})));
  // A closed loop's sweep counts as well.
  CHECK(frontier_of(sweep({point(1, summary(100, 200), "load.concurrency"),
                           point(4, summary(60, 500), "load.concurrency")})));
}

TEST_CASE("frontier: devices are TP x PP, times the router's replicas") {
  json w = engine_workload();
  w["target"]["engine"] = {
      {"tensor_parallel", 2}, {"pipeline_parallel", 2}, {"expert_parallel", 2}};
  std::optional<Frontier> f =
      frontier_of(sweep({point(1, summary(100, 400)), point(2, summary(50, 800))}, w));
  REQUIRE(f);
  CHECK(f->devices == 4);  // expert parallelism shares the tensor-parallel ranks
  CHECK(f->devices_note == "tensor_parallel 2 x pipeline_parallel 2");
  CHECK(f->points[0].tokens_per_device_s == Approx(100));

  w["target"]["type"] = "router";
  w["target"]["engine"] = {{"tensor_parallel", 2}};
  w["target"]["router"] = {{"replicas", 3}};
  f = frontier_of(sweep({point(1, summary(100, 600)), point(2, summary(50, 1200))}, w));
  REQUIRE(f);
  CHECK(f->devices == 6);
  CHECK(f->devices_note == "tensor_parallel 2 x pipeline_parallel 1 x 3 router replicas");
  CHECK(f->points[0].tokens_per_device_s == Approx(100));

  w["target"].erase("router");  // the router target's default: 2 replicas
  f = frontier_of(sweep({point(1, summary(100, 600)), point(2, summary(50, 1200))}, w));
  CHECK(f->devices == 4);

  w["target"] = {{"type", "simulated"}, {"engine", {{"pipeline_parallel", 4}}}};
  f = frontier_of(sweep({point(1, summary(100, 600)), point(2, summary(50, 1200))}, w));
  CHECK(f->devices == 4);  // no router object: one engine
  w["target"]["router"] = {{"replicas", 2}};
  f = frontier_of(sweep({point(1, summary(100, 600)), point(2, summary(50, 1200))}, w));
  CHECK(f->devices == 8);
}

TEST_CASE("frontier: an outside target's figures are per target, and say so") {
  for (const char* type : {"openai", "echo"}) {
    json w = engine_workload();
    w["target"] = {{"type", type}, {"engine", {{"tensor_parallel", 8}}}};
    const std::optional<Frontier> f =
        frontier_of(sweep({point(1, summary(100, 600)), point(2, summary(50, 1200))}, w));
    REQUIRE(f);
    CHECK(f->devices == 1);
    CHECK_THAT(f->devices_note, Catch::Contains("unknown") && Catch::Contains("per target"));
    CHECK(f->points[0].tokens_per_device_s == Approx(600));
  }
}

TEST_CASE("frontier: loads are marked at the search's goodput share, or 0.99") {
  const auto marks = [](const json& workload) {
    const std::optional<Frontier> f =
        frontier_of(sweep({point(1, summary(100, 200, 1.0)), point(2, summary(80, 400, 0.99)),
                           point(4, summary(50, 500, 0.95))},
                          workload));
    REQUIRE(f);
    std::vector<std::optional<bool>> out;
    for (const FrontierPoint& p : f->points) out.push_back(p.meets_slo);
    return std::make_pair(f->share, out);
  };
  auto [share, meets] = marks(engine_workload());
  CHECK(share == 0.99);
  CHECK(meets == std::vector<std::optional<bool>>{true, true, false});  // 0.99 itself meets

  json w = engine_workload();
  w["load"] = {{"rate", 1.0}, {"search", {{"goodput_share", 0.9}}}};
  std::tie(share, meets) = marks(w);
  CHECK(share == 0.9);
  CHECK(meets == std::vector<std::optional<bool>>{true, true, true});

  // No latency bound at all: nothing to meet, nothing marked.
  for (const json& slo : {json(nullptr), json::object()}) {
    w = engine_workload();
    if (slo.is_null()) {
      w.erase("slo");
    } else {
      w["slo"] = slo;
    }
    std::tie(share, meets) = marks(w);
    CHECK_FALSE(share);
    CHECK(meets == std::vector<std::optional<bool>>{std::nullopt, std::nullopt, std::nullopt});
  }
}

TEST_CASE("frontier: a single point's capacity search gives its probes as the points") {
  SearchRecord s;
  s.field = "load.rate";
  s.unit = "req/s";
  s.goodput_share = 0.99;
  s.status = "found";
  const auto probe = [](int64_t index, double load, double tokens_per_user, double tps,
                        double good) {
    SearchProbeRecord p;
    p.index = index;
    p.load = load;
    p.role = index < 2 ? (index == 0 ? "from" : "to") : "bisect";
    p.meets = good >= 0.99;
    p.summary.tpot_ms.p50 = 1000 / tokens_per_user;
    p.summary.output_throughput_tps = tps;
    p.summary.good_fraction = good;
    return p;
  };
  s.probes = {probe(0, 10, 100, 200, 1), probe(1, 80, 20, 900, 0.5), probe(2, 45, 60, 700, 0.995)};
  ResultsFile r = sweep({point(1, summary(100, 200))});
  r.points[0].sweep = nullptr;
  r.points[0].repetitions[0].search = s;
  const std::optional<Frontier> f = frontier_of(r);
  REQUIRE(f);
  CHECK(f->source == "search");
  REQUIRE(f->points.size() == 3);
  CHECK(f->points[0].label == "probe 0: load.rate=10");
  CHECK(f->points[1].label == "probe 2: load.rate=45");  // by load, not the order run
  CHECK(f->points[2].load == 80);
  CHECK(f->points[1].meets_slo == true);
  CHECK(f->points[2].meets_slo == false);
  for (const FrontierPoint& p : f->points) CHECK(p.on_frontier);

  // A sweep's first repetition with a search is still drawn from its points.
  ResultsFile swept = four_rates();
  swept.points[0].repetitions[0].search = s;
  CHECK(frontier_of(swept)->source == "sweep");
}

TEST_CASE("frontier: written as JSON with null marks without an SLO") {
  const std::optional<Frontier> f = frontier_of(four_rates());
  REQUIRE(f);
  json j = to_json(*f);
  CHECK(j["devices"] == 1);
  CHECK(j["devices_note"] == "tensor_parallel 1 x pipeline_parallel 1");
  CHECK(j["goodput_share"] == 0.99);
  CHECK(j["source"] == "sweep");
  REQUIRE(j["points"].size() == 4);
  CHECK(j["points"][2].dump() ==
        R"({"good_fraction":1.0,"label":"load.rate=4.0","load":4.0,"meets_slo":true,)"
        R"("on_frontier":false,"tokens_per_device_s":350.0,"tokens_per_user_s":50.0})");
  ResultsFile no_slo = four_rates();
  no_slo.workload.erase("slo");
  j = to_json(*frontier_of(no_slo));
  CHECK(j["goodput_share"].is_null());
  CHECK(j["points"][0]["meets_slo"].is_null());
}

// Replicas behind the router and prefill/decode workers, simulated: the router's own policies
// choose, a decode worker adopts a prefill worker's blocks after the link model's time, and the
// figures come out where hand arithmetic puts them.
#include <catch2/catch.hpp>

#include <fstream>
#include <vector>

#include "bench/driver/run_workload.h"
#include "bench/workload/workload_error.h"
#include "bench/workload/workload_parser.h"
#include "common/results/results_file.h"
#include "tests/temp_dir.h"

using namespace infergate;

namespace {

// Llama-3-8B on H100s (default calibration), 32 users' own 512-token system prompts.
const char* kWorkload = R"({
  "schema": "infergate.workload/v1",
  "name": "sim-cluster",
  "target": {"type": "simulated", "model": "llama-3-8b", "hardware": "h100-sxm",
             "memory_utilization": 0.9,
             "engine": {"max_num_seqs": 32, "max_num_batched_tokens": 2048},
             "router": {"replicas": 4, "policy": "prefix-aware"}},
  "dataset": {"type": "synthetic", "input_tokens": {"dist": "uniform", "min": 16, "max": 64},
              "output_tokens": {"dist": "fixed", "value": 16},
              "shared_prefix": {"num_prefixes": 32, "prefix_tokens": 512, "fraction": 1}},
  "load": {"mode": "open", "rate": 50, "arrival": "poisson", "num_requests": 400,
           "warmup_requests": 0},
  "record_requests": true,
  "seed": 5
})";

nlohmann::json run_once(const std::vector<std::string>& overrides,
                        const char* workload = kWorkload) {
  infergate::testing::TempDir dir;
  const std::string path = dir.file("w.json");
  std::ofstream(path) << workload;
  RunOptions o;
  o.out_path = dir.file("results.json");
  o.quiet = true;
  return run_workload(load_workload_file(path, overrides), o).results;
}

const nlohmann::json& first_repetition(const nlohmann::json& results) {
  return results.at("points").at(0).at("repetitions").at(0);
}

}  // namespace

TEST_CASE("simulated replicas are routed by the router's own policies") {
  const nlohmann::json rr = run_once({"target.router.policy=round-robin"});
  const nlohmann::json& router = first_repetition(rr).at("engine").at("router");
  CHECK(router.at("policy") == "round-robin");
  REQUIRE(router.at("replicas").size() == 4);
  for (const nlohmann::json& r : router["replicas"]) {
    CHECK(r.at("routed") == 100);  // in turn, exactly
    CHECK(r.at("succeeded") == 100);
  }
  // Prefix-aware routing sends each system prompt where it is cached: the replicas' real prefix
  // caches hit more than round-robin's, and the router's index agrees.
  const nlohmann::json pa = run_once({});
  const nlohmann::json& aware = first_repetition(pa);
  const nlohmann::json& spread = first_repetition(rr);
  CHECK(aware["engine"]["router"]["prefix_hit_rate"]["achieved"].get<double>() >
        spread["engine"]["router"]["prefix_hit_rate"]["achieved"].get<double>() + 0.2);
  CHECK(aware["summary"]["prefix_cache_hit_rate"].get<double>() >
        spread["summary"]["prefix_cache_hit_rate"].get<double>() + 0.1);
  CHECK(aware["summary"]["num_completed"] == 400);
  // Every replica's device counts: four ledgers.
  CHECK(aware["engine"]["weights_bytes"].get<double>() == Approx(4 * 16.06e9).epsilon(0.01));
  CHECK(aware["engine"]["parallel"]["workers"].size() == 4);
}

TEST_CASE("one replica behind the simulated router runs as the engine alone") {
  const nlohmann::json routed = run_once({"target.router.replicas=1"});
  const nlohmann::json alone = run_once({"target.router=null"});
  const nlohmann::json& a = first_repetition(routed);
  const nlohmann::json& b = first_repetition(alone);
  CHECK(a.at("summary") == b.at("summary"));
  CHECK(a.at("requests") == b.at("requests"));
  CHECK(a["engine"].contains("router"));
  CHECK_FALSE(b["engine"].contains("router"));
}

TEST_CASE("a simulated cluster run is identical run to run") {
  const nlohmann::json a = run_once({"target.router.prefill_replicas=1"});
  const nlohmann::json b = run_once({"target.router.prefill_replicas=1"});
  CHECK(a.at("points") == b.at("points"));
  // The workers' roles, the router's handoff figures and the records' KV transfers read back
  // through the typed sections as written.
  CHECK(results_to_json(parse_results(a, "cluster.json")) == a);
}

namespace {

// One 1,000-token prompt on one prefill and one decode worker: every figure by hand.
const char* kOneRequest = R"({
  "schema": "infergate.workload/v1",
  "name": "sim-handoff",
  "target": {"type": "simulated", "model": "llama-3-8b", "hardware": "h100-sxm",
             "memory_utilization": 0.9,
             "engine": {"max_num_seqs": 8, "max_num_batched_tokens": 2048,
                        "kv_cache_dtype": "bf16"},
             "router": {"replicas": 2, "prefill_replicas": 1, "policy": "round-robin"}},
  "dataset": {"type": "synthetic", "input_tokens": {"dist": "fixed", "value": 1000},
              "output_tokens": {"dist": "fixed", "value": 8}},
  "load": {"mode": "closed", "concurrency": 1, "num_requests": 1, "warmup_requests": 0},
  "record_requests": true
})";

}  // namespace

TEST_CASE("a decode worker reads the prompt's full blocks over the link, then decodes") {
  const nlohmann::json results = run_once({}, kOneRequest);
  const nlohmann::json& rep = first_repetition(results);
  const nlohmann::json& d = rep.at("engine").at("router").at("disaggregation");
  // 62 full blocks of 16 tokens; Llama-3-8B's KV is 2 x 32 layers x 8 heads x 128 x 2 bytes.
  const double bytes = 992.0 * 2 * 32 * 8 * 128 * 2;
  CHECK(d.at("reads") == 1);
  CHECK(d.at("kv_bytes").get<double>() == bytes);
  // NVLink: 450 GB/s and 1 us (sim/hardware/h100-sxm.json).
  const double read_ms = (1e-6 + bytes / 450e9) * 1e3;
  CHECK(d.at("read_ms").at("p50").get<double>() == Approx(read_ms).epsilon(1e-4));
  const double prefill_ms = d.at("prefill_ms").at("p50").get<double>();
  CHECK(prefill_ms > 1);  // a 1,000-token prefill on an H100: milliseconds
  // The decode worker held none of it, adopted all of it, and computed only the tail.
  const nlohmann::json& request = rep.at("requests").at(0);
  CHECK(request.at("cached_tokens") == 992);
  const double ttft = rep.at("summary").at("ttft_ms").at("p50").get<double>();
  CHECK(ttft > prefill_ms + read_ms);
  CHECK(ttft < prefill_ms + read_ms + 0.5 * prefill_ms);  // a tail of 8 tokens, not the prompt

  // A 100 MB/s cap on the decode worker's reads: 130 MB take 1.3 s, all in TTFT.
  const nlohmann::json capped = run_once({"target.router.kv_read_rate_mb_s=100"}, kOneRequest);
  const nlohmann::json& c = first_repetition(capped);
  const double capped_read_ms = (1e-6 + bytes / 100e6) * 1e3;
  CHECK(c["engine"]["router"]["disaggregation"]["read_ms"]["p50"].get<double>() ==
        Approx(capped_read_ms).epsilon(1e-4));
  CHECK(c["summary"]["ttft_ms"]["p50"].get<double>() ==
        Approx(ttft - read_ms + capped_read_ms).epsilon(1e-6));
}

TEST_CASE("simulated disaggregation keeps long prefills out of the decode steps") {
  // Long prompts among short ones on two H100s: colocated, a 4,000-token prefill joins the
  // decodes' steps; one prefill and one decode worker keep it apart.
  const char* mixed = R"({
    "schema": "infergate.workload/v1",
    "name": "sim-interference",
    "target": {"type": "simulated", "model": "llama-3-8b", "hardware": "h100-sxm",
               "memory_utilization": 0.9,
               "engine": {"max_num_seqs": 64, "max_num_batched_tokens": 4096,
                          "kv_cache_dtype": "bf16"},
               "router": {"replicas": 2, "policy": "least-outstanding"}},
    "dataset": {"type": "synthetic",
                "input_tokens": {"dist": "lognormal", "mean": 600, "stddev": 1200, "min": 32,
                                 "max": 4000},
                "output_tokens": {"dist": "fixed", "value": 128}},
    "load": {"mode": "open", "rate": 20, "arrival": "poisson", "num_requests": 300},
    "sweep": {"field": "target.router.prefill_replicas", "values": [0, 1]}
  })";
  const nlohmann::json results = run_once({}, mixed);
  const nlohmann::json& colocated = results["points"][0]["summary"];
  const nlohmann::json& split = results["points"][1]["summary"];
  // Colocated, a token now and then waits for a prefill chunk; disaggregated, none does ...
  CHECK(split["itl_ms"]["p99"].get<double>() < 0.6 * colocated["itl_ms"]["p99"].get<double>());
  CHECK(split["itl_ms"]["max"].get<double>() < 0.2 * colocated["itl_ms"]["max"].get<double>());
  // ... and the price: every prompt waits for the one prefill worker, then for its KV.
  CHECK(split["ttft_ms"]["p50"].get<double>() > colocated["ttft_ms"]["p50"].get<double>());
  CHECK(split["num_completed"] == 300);
}

TEST_CASE("a simulated router target's bad workers are named") {
  CHECK_THROWS_WITH(run_once({"target.router.prefill_replicas=4"}),
                    Catch::Contains("target.router.prefill_replicas") &&
                        Catch::Contains("[0, router.replicas - 1 = 3]"));
  CHECK_THROWS_WITH(run_once({"target.router.policy=random"}),
                    Catch::Contains("target.router.policy"));
  // Faults kill processes; a simulation has none.
  CHECK_THROWS_WITH(run_once({"faults=[{\"kill_replica\": 0, \"at_s\": 1}]"}),
                    Catch::Contains("faults"));
}

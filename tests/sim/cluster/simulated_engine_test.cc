// The simulated executor under the real engine: the scheduler decides exactly as it does over
// the real executor, and a simulated run is a pure function of its inputs.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <vector>

#include "bench/driver/run_workload.h"
#include "bench/workload/workload_parser.h"
#include "common/io/json_text.h"
#include "engine/core/engine.h"
#include "engine/model/synthetic_model.h"
#include "sim/cluster/simulated_deployment.h"
#include "sim/simulated_executor.h"
#include "sim/virtual_clock.h"
#include "tests/engine/test_models.h"
#include "tests/temp_dir.h"

using namespace infergate;

namespace {

// Per step, the scheduled (request, tokens) pairs; per request, its preemptions and cached
// prompt tokens at the end.
struct Trace {
  std::vector<std::vector<std::pair<std::string, int>>> steps;
  std::map<std::string, std::pair<int, int>> ends;
};

EngineConfig tight_config() {
  EngineConfig c;
  c.num_kv_blocks = 14;  // forces preemption with these prompts
  c.block_size = 8;
  c.max_num_batched_tokens = 24;  // chunked prefill
  c.max_num_seqs = 6;
  c.max_model_len = 96;
  c.num_threads = 1;
  return c;
}

std::vector<std::vector<int32_t>> prompts() {
  std::vector<std::vector<int32_t>> out;
  for (int i = 0; i < 8; ++i) {
    std::vector<int32_t> p(16, 7);  // a shared 16-token prefix: prefix-cache hits
    for (int j = 0; j < 5 + 3 * i; ++j) p.push_back(int32_t(10 + (i * 31 + j) % 400));
    out.push_back(p);
  }
  return out;
}

// Steps `engine` to the end with the requests added up front, logging the scheduler's work
// through the outputs' token counts and the engine's counters.
Trace run(Engine& engine) {
  Trace t;
  const auto ps = prompts();
  for (size_t i = 0; i < ps.size(); ++i) {
    engine.add_request("r" + std::to_string(i), ps[i], testing::fixed_tokens(6 + int(i)));
  }
  while (engine.has_unfinished()) {
    const int64_t before = engine.stats().total_scheduled_tokens;
    std::vector<std::pair<std::string, int>> step;
    for (const RequestOutput& o : engine.step()) {
      step.emplace_back(o.id, int(o.token_ids.size()));
      if (o.finished) t.ends[o.id] = {o.num_preemptions, o.num_cached_prompt_tokens};
    }
    step.emplace_back("scheduled tokens", int(engine.stats().total_scheduled_tokens - before));
    t.steps.push_back(step);
    engine.check_invariants();
  }
  return t;
}

}  // namespace

TEST_CASE("the simulated and real executors give the same scheduling decisions") {
  const ModelConfig config = testing::small_test_config();
  Engine real(tight_config(), make_synthetic_model(config, 3));
  const Trace a = run(real);

  // The same shape on simulated hardware: a ModelWeights with the config alone.
  VirtualClock clock;
  ModelWeights shape;
  shape.config = config;
  EngineEnvironment env;
  env.clock = [&clock] { return clock.now_ns(); };
  HardwareSpec hw = load_hardware_spec("epyc-zen4-2core");
  env.executor = [&](const ModelWeights&, int) {
    return std::make_unique<SimulatedExecutor>(
        StepCostModel(config, hw, default_calibration(hw), SimLayout{},
                      make_precision("auto", DType::kF32, DType::kF32, hw)),
        clock, MemoryLedger{}, 0);
  };
  Engine sim(tight_config(), shape, env);
  const Trace b = run(sim);
  CHECK(a.steps == b.steps);
  CHECK(a.ends == b.ends);
  int preempted = 0, cached = 0;
  for (const auto& [id, end] : a.ends) preempted += end.first, cached += end.second;
  CHECK(preempted > 0);  // the comparison covered preemption and prefix hits
  CHECK(cached > 0);
  CHECK(clock.now_ns() > 0);
}

namespace {

const char* kWorkload = R"({
  "schema": "infergate.workload/v1",
  "name": "sim-determinism",
  "target": {"type": "simulated", "model": "llama-3-8b", "hardware": "h100-sxm",
             "memory_utilization": 0.9,
             "engine": {"max_num_seqs": 32, "max_num_batched_tokens": 1024}},
  "dataset": {"type": "synthetic", "input_tokens": {"dist": "uniform", "min": 100, "max": 900},
              "output_tokens": {"dist": "uniform", "min": 20, "max": 200},
              "shared_prefix": {"num_prefixes": 2, "prefix_tokens": 256, "fraction": 1}},
  "load": {"mode": "open", "rate": 40, "arrival": "poisson", "num_requests": 200},
  "repetitions": 2,
  "record_requests": true,
  "seed": 11
})";

nlohmann::json run_once(const std::string& out, const std::vector<std::string>& overrides = {}) {
  infergate::testing::TempDir dir;
  const std::string path = dir.file("w.json");
  std::ofstream(path) << kWorkload;
  RunOptions o;
  o.out_path = out;
  o.quiet = true;
  return run_workload(load_workload_file(path, overrides), o).results;
}

}  // namespace

TEST_CASE("a simulated run is bit-identical run to run and says it was simulated") {
  infergate::testing::TempDir dir;
  const nlohmann::json a = run_once(dir.file("a.json"));
  const nlohmann::json b = run_once(dir.file("b.json"));
  REQUIRE(a.at("points").size() == 1);
  CHECK(a.at("points") == b.at("points"));
  const nlohmann::json& rep0 = a["points"][0]["repetitions"][0];
  const nlohmann::json& rep1 = a["points"][0]["repetitions"][1];
  CHECK(rep0.at("summary") == rep1.at("summary"));  // no noise between repetitions either
  CHECK(rep0["summary"]["num_completed"] == 200);
  CHECK(rep0["summary"]["ttft_ms"]["p50"].get<double>() > 0);
  // The shared prefixes hit the real prefix cache.
  CHECK(rep0["summary"]["prefix_cache_hit_rate"].get<double>() > 0.1);
  const nlohmann::json& sim = a["manifest"]["simulated"];
  CHECK(sim["hardware"]["name"] == "h100-sxm");
  CHECK(sim["model"] == "sim/models/llama-3-8b.json");
  CHECK(sim["calibration"]["name"] == "default");
  CHECK(rep0["engine"]["parallel"]["simulated"] == true);
  // The device's memory: 16 GB of weights and a KV pool in the rest of 90% of 80 GiB.
  CHECK(rep0["engine"]["weights_bytes"].get<double>() == Approx(16.06e9).epsilon(0.01));
  CHECK(rep0["summary"]["peak_memory_bytes"].get<double>() > 60e9);
}

TEST_CASE("a slower decode step in the code shows in the simulated TPOT exactly") {
  infergate::testing::TempDir dir;
  const nlohmann::json base = run_once(dir.file("a.json"));
  const nlohmann::json slow =
      run_once(dir.file("b.json"), {"target.engine.debug.inject_decode_delay_us=500"});
  const double t0 = base["points"][0]["summary"]["tpot_ms"]["p50"].get<double>();
  const double t1 = slow["points"][0]["summary"]["tpot_ms"]["p50"].get<double>();
  CHECK(t1 > t0 + 0.45);
}

TEST_CASE("a layout that does not fit the device is refused with the numbers") {
  infergate::testing::TempDir dir;
  CHECK_THROWS_WITH(run_once(dir.file("a.json"), {"target.model=llama-3-70b"}),
                    Catch::Contains("bf16 weights: 141.1 GB"));
  CHECK_THROWS_WITH(run_once(dir.file("a.json"), {"target.hardware=tpu-v9"}),
                    Catch::Contains("no such built-in hardware"));
}

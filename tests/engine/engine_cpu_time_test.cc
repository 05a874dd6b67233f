// The engine threads' CPU time in steps (engine/core/step_cpu_time.h): steps are classed by
// what they scheduled, and a CPU engine reports the time of its stepping thread and its pool.
#include <catch2/catch.hpp>

#include "engine/core/engine.h"
#include "engine/core/step_cpu_time.h"
#include "test_models.h"

using namespace infergate;

TEST_CASE("step CPU time is split by step kind, and a mixed step counts only in the total",
          "[engine]") {
  StepCpuTime t;
  t.add(100, {.decode = 4, .prefill = 0});
  t.add(300, {.decode = 0, .prefill = 64});
  t.add(50, {.decode = 2, .prefill = 16});  // a prefill chunk beside decodes
  CHECK(t.total_ns == 450);
  CHECK(t.decode_ns == 100);
  CHECK(t.decode_tokens == 4);
  CHECK(t.prefill_ns == 300);
  CHECK(t.prefill_tokens == 64);
}

TEST_CASE("the decode cost line recovers a fixed and a per-token part", "[engine]") {
  StepCpuTime t;
  t.add(3000, {.decode = 4, .prefill = 0});
  CHECK_FALSE(t.decode_cost_line().has_value());  // one batch size: no line yet
  t.add(3000, {.decode = 4, .prefill = 0});
  CHECK_FALSE(t.decode_cost_line().has_value());
  for (const int64_t batch : {1, 2, 7}) t.add(1000 + 500 * batch, {.decode = batch, .prefill = 0});
  t.add(99999, {.decode = 0, .prefill = 30});  // not a decode step
  const std::optional<DecodeCostLine> line = t.decode_cost_line();
  REQUIRE(line.has_value());
  CHECK(line->fixed_ns == Approx(1000));
  CHECK(line->per_token_ns == Approx(500));
  CHECK(line->single_step_ns() == Approx(1500));
}

TEST_CASE("a CPU engine reports its threads' CPU time per prefill and decode step", "[engine]") {
  const ModelWeights weights = make_synthetic_model(testing::small_test_config(), 3);
  for (const int threads : {1, 2}) {
    INFO("threads " << threads);
    EngineConfig c;
    c.num_threads = threads;
    Engine engine(c, weights);
    CHECK_FALSE(engine.stats().cpu.has_value());  // no step yet
    SamplingParams p;
    p.max_tokens = 6;
    p.ignore_eos = true;
    engine.generate({std::vector<int32_t>(40, 7)}, p);
    const EngineStats s = engine.stats();
    REQUIRE(s.cpu.has_value());
    // One 40-token prompt step (which samples the first token), then 5 decode steps.
    CHECK(s.cpu->prefill_tokens == 40);
    CHECK(s.cpu->decode_tokens == 5);
    CHECK(s.cpu->prefill_ns > 0);
    CHECK(s.cpu->decode_ns > 0);
    CHECK(s.cpu->total_ns == s.cpu->prefill_ns + s.cpu->decode_ns);
    // CPU time cannot exceed the steps' wall time on all the engine's threads.
    const int64_t wall = s.schedule_ns + s.execute_ns + s.sample_ns + s.update_ns;
    CHECK(s.cpu->total_ns <= int64_t(threads) * wall + 5'000'000);
  }
}

// The targets of docs/performance.md, through the real engine (Engine::step) on the `small`
// preset with bf16 weights and a bf16 KV cache:
//   BM_EngineDecode1    one sequence decoding (128-token prompt, then 256 decode steps)
//   BM_EngineDecode32   32 sequences decoding together (same prompt length, 128 steps)
//   BM_EnginePrefill512 one 512-token prompt to its first token (prefix caching off)
// Each reports tokens/s, weight bytes/s and FLOP/s and their ratios to the read bandwidth and
// GEMM rate measured at start-up in this process (baselines.h).
#include <benchmark/benchmark.h>

#include <chrono>
#include <string>
#include <vector>

#include "bench_util.h"
#include "engine/core/engine.h"
#include "engine/model/synthetic_model.h"
#include "engine_requests.h"
#include "model_cost.h"

namespace infergate::bench {
namespace {

constexpr int kPrompt = 128;

const ModelWeights& small_weights() {
  static const ModelWeights w = make_synthetic_model(preset_config("small"), 7);
  return w;
}

EngineConfig bench_config() {
  EngineConfig c;
  c.weight_dtype = WeightDtype::kBf16;
  c.kv_cache_dtype = DType::kBF16;
  c.prefix_caching = false;  // repeated prompts must be computed, not found in the cache
  c.max_num_batched_tokens = 2048;
  return c;
}

// Built with append: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string.
std::string request_id(char prefix, int n) {
  std::string id(1, prefix);
  id.append(std::to_string(n));
  return id;
}

void decode_bench(benchmark::State& state, int seqs) {
  Engine engine(bench_config(), small_weights());
  const int steps = int(state.max_iterations);
  for (int s = 0; s < seqs; ++s) {
    engine.add_request(request_id('r', s), distinct_prompt(kPrompt, s), fixed_length(steps + 8));
  }
  finish_prefill(engine, seqs);
  IterationTimer timer;
  for (auto _ : state) {
    timer.start();
    engine.step();
    timer.stop();
  }
  const StepCost mean =
      mean_decode_step_cost(engine.model_config(), DType::kBF16, seqs, steps, kPrompt);
  report_rates(state, timer, double(seqs), mean.weight_bytes, mean.flops);
  state.counters["avg_context"] = kPrompt + 2 + (steps - 1) / 2.0;
}

void BM_EngineDecode1(benchmark::State& state) { decode_bench(state, 1); }
void BM_EngineDecode32(benchmark::State& state) { decode_bench(state, 32); }
BENCHMARK(BM_EngineDecode1)->Iterations(256)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EngineDecode32)->Iterations(128)->Unit(benchmark::kMillisecond);

void BM_EnginePrefill512(benchmark::State& state) {
  constexpr int kLength = 512;
  Engine engine(bench_config(), small_weights());
  int id = 0;
  IterationTimer timer;
  for (auto _ : state) {
    engine.add_request(request_id('p', id), distinct_prompt(kLength, id), fixed_length(1));
    ++id;
    timer.start();
    while (engine.has_unfinished()) engine.step();
    timer.stop();
  }
  const StepCost cost = step_cost(engine.model_config(), DType::kBF16, 1, kLength, kLength, 1);
  report_rates(state, timer, kLength, cost.weight_bytes, cost.flops);
}
BENCHMARK(BM_EnginePrefill512)->Iterations(8)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace infergate::bench

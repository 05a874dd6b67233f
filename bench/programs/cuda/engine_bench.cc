// The engine's speed on the GPU, as the CPU's targets are measured (bench/programs/micro/
// engine_bench.cc): the `small` preset with bf16 weights and a bf16 KV cache through the real
// engine on backend cuda (Engine::step, device sampling), CUDA graphs on for the decodes.
//   BM_CudaEngineDecode1    one sequence decoding (128-token prompt, then 256 decode steps)
//   BM_CudaEngineDecode32   32 sequences decoding together (128 steps)
//   BM_CudaEnginePrefill512 one 512-token prompt to its first token (prefix caching off)
// Each reports tokens/s, and weight bytes/s and FLOP/s as shares of this device's roofline
// (roofline.h: copy bandwidth, cuBLAS bf16 GEMM), measured in the same process.
#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "bench/programs/cuda/roofline.h"
#include "bench/programs/micro/engine_requests.h"
#include "bench/programs/micro/model_cost.h"
#include "engine/core/engine.h"
#include "engine/cuda/cuda_executor.h"
#include "engine/model/synthetic_model.h"

namespace infergate::cuda_bench {
namespace {

constexpr int kPrompt = 128;

const ModelWeights& small_weights() {
  static const ModelWeights w = make_synthetic_model(preset_config("small"), 7);
  return w;
}

std::unique_ptr<Engine> make_engine() {
  static const bool registered = (register_cuda_executor(), true);
  (void)registered;
  EngineConfig c;
  c.backend = Backend::kCuda;
  c.weight_dtype = WeightDtype::kBf16;
  c.kv_cache_dtype = DType::kBF16;
  c.prefix_caching = false;  // repeated prompts must be computed, not found in the cache
  c.max_num_batched_tokens = 2048;
  c.cuda_graphs = true;
  return std::make_unique<Engine>(c, small_weights());
}

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Rates of the mean iteration: tokens/s, and bytes/s and FLOP/s over the roofline's.
void report(benchmark::State& state, double seconds, double tokens, const bench::StepCost& cost) {
  const Roofline& r = roofline();
  const double per_iteration = seconds / double(state.iterations());
  state.counters["tok_per_s"] = tokens / per_iteration;
  state.counters["GBps"] = cost.weight_bytes / per_iteration / 1e9;
  state.counters["TFLOPs"] = cost.flops / per_iteration / 1e12;
  state.counters["bw_share"] = cost.weight_bytes / per_iteration / r.copy_bytes_per_second;
  state.counters["gemm_share"] = cost.flops / per_iteration / r.bf16_gemm_flops;
  state.counters["mean_ms"] = per_iteration * 1e3;
}

void decode_bench(benchmark::State& state, int seqs) {
  const std::unique_ptr<Engine> owned = make_engine();
  Engine& engine = *owned;
  const int steps = int(state.max_iterations);
  for (int s = 0; s < seqs; ++s) {
    engine.add_request("r" + std::to_string(s), bench::distinct_prompt(kPrompt, s),
                       bench::fixed_length(steps + 8));
  }
  bench::finish_prefill(engine, seqs);
  const double t0 = now_s();
  for (auto _ : state) engine.step();
  const double seconds = now_s() - t0;
  report(state, seconds, double(seqs),
         bench::mean_decode_step_cost(engine.model_config(), DType::kBF16, seqs, steps, kPrompt));
}

void BM_CudaEngineDecode1(benchmark::State& state) { decode_bench(state, 1); }
void BM_CudaEngineDecode32(benchmark::State& state) { decode_bench(state, 32); }
BENCHMARK(BM_CudaEngineDecode1)->Iterations(256)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CudaEngineDecode32)->Iterations(128)->Unit(benchmark::kMillisecond);

void BM_CudaEnginePrefill512(benchmark::State& state) {
  constexpr int kLength = 512;
  const std::unique_ptr<Engine> owned = make_engine();
  Engine& engine = *owned;
  int id = 0;
  double seconds = 0;
  for (auto _ : state) {
    engine.add_request("p" + std::to_string(id), bench::distinct_prompt(kLength, id),
                       bench::fixed_length(1));
    ++id;
    const double t0 = now_s();
    while (engine.has_unfinished()) engine.step();
    seconds += now_s() - t0;
  }
  report(state, seconds, kLength,
         bench::step_cost(engine.model_config(), DType::kBF16, 1, kLength, kLength, 1));
}
BENCHMARK(BM_CudaEnginePrefill512)->Iterations(8)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace infergate::cuda_bench

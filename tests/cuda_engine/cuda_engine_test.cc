// The cuda backend against the CPU one. Forward level: the same batches (fresh prefills, a
// chunk over a cached prefix, decodes; blocks out of order) through both forwards, logits
// compared step by step. Engine level: greedy tokens of the `tiny` preset in fp32 are the same
// (sliding windows, speculation and graphs included).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/core/engine.h"
#include "engine/cuda/cuda_executor.h"
#include "engine/cuda/cuda_forward.h"
#include "engine/forward/cpu/cpu_transformer.h"
#include "engine/kv/kv_cache_storage.h"
#include "engine/model/synthetic_model.h"
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/device.h"
#include "tests/cuda/cuda_test_util.h"

namespace infergate {

namespace {

constexpr int kBlockSize = 16;
constexpr int kNumBlocks = 12;

// One sequence of a step: all its tokens so far, how many are cached, its (scattered) blocks.
struct SeqSpec {
  std::vector<int32_t> tokens;
  int64_t cached = 0;
  std::vector<int32_t> blocks;
};

// The step that runs every sequence's uncached tokens; each sequence's last row is sampled.
BatchInput batch_of(const std::vector<SeqSpec>& seqs) {
  BatchInput b;
  for (const SeqSpec& s : seqs) {
    AttentionSequence a;
    a.query_start = b.num_tokens();
    a.query_len = int64_t(s.tokens.size()) - s.cached;
    a.context_len = int64_t(s.tokens.size());
    a.block_table = s.blocks.data();
    for (int64_t p = s.cached; p < a.context_len; ++p) {
      b.token_ids.push_back(s.tokens[size_t(p)]);
      b.positions.push_back(int32_t(p));
      b.slot_mapping.push_back(int64_t(s.blocks[size_t(p / kBlockSize)]) * kBlockSize +
                               p % kBlockSize);
    }
    b.sequences.push_back(a);
    b.logits_rows.push_back(b.num_tokens() - 1);
  }
  return b;
}

std::vector<int32_t> tokens(int count, int salt) {
  std::vector<int32_t> t;
  for (int i = 0; i < count; ++i) t.push_back(int32_t((i * 37 + salt * 101) % 500 + 3));
  return t;
}

// Two steps through the CPU and GPU forwards, logits within `tolerance` after each.
void check_forward(const ModelWeights& weights, DType kv_dtype, cuda::GemmChoice gemm,
                   double tolerance) {
  ThreadPool pool(2);
  CpuTransformer cpu(weights, pool);
  KvCacheStorage cpu_cache(weights.config, kNumBlocks, kBlockSize, kv_dtype);
  testing::TestStream stream;
  cuda::CudaForward gpu(weights, gemm, stream.get());
  cuda::DeviceKvCache gpu_cache(weights.config, kNumBlocks, kBlockSize, kv_dtype);

  // Step 1: two fresh prompts. Step 2: a decode, a chunk over a cached prefix, a new
  // one-token prompt (a decode-shaped prefill).
  std::vector<SeqSpec> step1 = {{tokens(37, 1), 0, {5, 2, 9}}, {tokens(5, 2), 0, {0, 7}}};
  std::vector<SeqSpec> step2 = {
      {tokens(38, 1), 37, {5, 2, 9}}, {tokens(25, 2), 5, {0, 7}}, {tokens(1, 3), 0, {3}}};
  for (const auto* step : {&step1, &step2}) {
    const BatchInput batch = batch_of(*step);
    const std::vector<float> expected = cpu.forward(batch, cpu_cache);
    const std::vector<float> actual = gpu.forward(batch, gpu_cache);
    CHECK(testing::relative_error(actual, expected) < tolerance);
  }
}

ModelWeights tiny_weights() {
  ModelConfig c = preset_config("tiny");
  c.vocab_size = 512;  // the forward tests need the shape, not 32000 logits per row
  c.num_kv_heads = 2;  // grouped-query attention
  return make_synthetic_model(c, 7);
}

}  // namespace

TEST_CASE("cuda: the forward's logits match the CPU's in fp32, over paged KV") {
  check_forward(tiny_weights(), DType::kF32, cuda::GemmChoice::kCublas, 1e-4);
}

TEST_CASE("cuda: bf16 and f16 KV caches give the CPU's logits with the same cache dtype") {
  check_forward(tiny_weights(), DType::kBF16, cuda::GemmChoice::kCublas, 1e-3);
  check_forward(tiny_weights(), DType::kF16, cuda::GemmChoice::kCublas, 1e-3);
}

TEST_CASE("cuda: bf16 weights: logits within bf16 tolerance, with cuBLAS and with our GEMM") {
  // The GPU also rounds the activations to bf16 for the GEMM; the CPU keeps them fp32.
  ModelWeights w = tiny_weights();
  w.apply_weight_dtype("bf16");
  check_forward(w, DType::kF32, cuda::GemmChoice::kCublas, 2e-2);
  check_forward(w, DType::kF32, cuda::GemmChoice::kInfergate, 2e-2);
}

TEST_CASE("cuda: greedy tokens of the tiny preset equal the CPU engine's in fp32") {
  std::vector<std::vector<int32_t>> prompts;
  for (int i = 0; i < 12; ++i) {
    std::vector<int32_t> p = tokens(20, 9);  // a shared prefix longer than a block
    const std::vector<int32_t> tail = tokens(1 + (i * 7) % 23, i);
    p.insert(p.end(), tail.begin(), tail.end());
    prompts.push_back(p);
  }
  SamplingParams greedy;
  greedy.max_tokens = 12;
  greedy.ignore_eos = true;
  register_cuda_executor();  // as the infergate binary's main() does
  auto run = [&](const std::string& backend, bool graphs) {
    EngineConfig c;
    c.backend = parse_backend(backend);
    c.cuda_graphs = graphs;
    c.num_threads = 2;
    c.max_num_batched_tokens = 48;  // chunked prefills mixed with decodes
    Engine engine(c, make_synthetic_model(preset_config("tiny"), 3));
    std::vector<std::vector<int32_t>> out;
    for (const GenerateResult& r : engine.generate(prompts, greedy)) out.push_back(r.token_ids);
    if (backend == "cuda") {
      const MemoryLedger m = engine.stats().memory;
      CHECK(m.weights_bytes > 0);
      CHECK(m.kv_cache_bytes > 0);
      CHECK(m.workspace_bytes > 0);
    }
    return out;
  };
  const auto expected = run("cpu", false);
  CHECK(run("cuda", false) == expected);
  CHECK(run("cuda", true) == expected);  // decode steps replayed from CUDA graphs
}

TEST_CASE("cuda: speculative decoding gives the CPU engine's greedy tokens") {
  // The drafts are verified on the GPU's logits (the executor returns every verify row); a
  // repetitive prompt makes the n-gram proposer draft most steps, self-drafting every step.
  std::vector<std::vector<int32_t>> prompts;
  for (int i = 0; i < 6; ++i) {
    std::vector<int32_t> p;
    for (int r = 0; r < 4; ++r) {
      const std::vector<int32_t> motif = tokens(6, i);
      p.insert(p.end(), motif.begin(), motif.end());
    }
    prompts.push_back(p);
  }
  SamplingParams greedy;
  greedy.max_tokens = 16;
  greedy.ignore_eos = true;
  register_cuda_executor();
  auto run = [&](Backend backend, SpeculativeMethod method) {
    EngineConfig c;
    c.backend = backend;
    c.num_threads = 2;
    c.speculative_method = method;
    c.speculative_draft_layers = method == SpeculativeMethod::kSelf ? 1 : 0;
    Engine engine(c, make_synthetic_model(preset_config("tiny"), 3));
    std::vector<std::vector<int32_t>> out;
    for (const GenerateResult& r : engine.generate(prompts, greedy)) out.push_back(r.token_ids);
    if (method != SpeculativeMethod::kNone) CHECK(engine.stats().spec_num_drafts > 0);
    return out;
  };
  const auto expected = run(Backend::kCpu, SpeculativeMethod::kNone);
  CHECK(run(Backend::kCuda, SpeculativeMethod::kNgram) == expected);
  CHECK(run(Backend::kCuda, SpeculativeMethod::kSelf) == expected);
}

TEST_CASE("cuda: a sliding-window model gives the CPU engine's greedy tokens") {
  // Prompts several windows long, chunked, so prefill chunks and decodes both start past
  // released blocks (the KV manager gives back every block behind a window).
  ModelConfig config = preset_config("tiny");
  config.sliding_window = 20;
  std::vector<std::vector<int32_t>> prompts;
  for (int i = 0; i < 5; ++i) prompts.push_back(tokens(40 + 17 * i, i));
  SamplingParams greedy;
  greedy.max_tokens = 24;
  greedy.ignore_eos = true;
  register_cuda_executor();
  auto run = [&](Backend backend) {
    EngineConfig c;
    c.backend = backend;
    c.num_threads = 2;
    c.max_num_batched_tokens = 32;
    Engine engine(c, make_synthetic_model(config, 3));
    std::vector<std::vector<int32_t>> out;
    for (const GenerateResult& r : engine.generate(prompts, greedy)) out.push_back(r.token_ids);
    return out;
  };
  CHECK(run(Backend::kCuda) == run(Backend::kCpu));
}

TEST_CASE("cuda: a KV block handed over from the device is the CPU cache's, and goes back") {
  // Disaggregation's handoff: the same prompt through both forwards, each cache's block read
  // in the host layout (every layer's K, then every layer's V), compared as floats.
  const ModelWeights w = tiny_weights();
  ThreadPool pool(2);
  CpuTransformer cpu(w, pool);
  KvCacheStorage cpu_cache(w.config, kNumBlocks, kBlockSize, DType::kF32);
  testing::TestStream stream;
  cuda::CudaForward gpu(w, cuda::GemmChoice::kCublas, stream.get());
  cuda::DeviceKvCache gpu_cache(w.config, kNumBlocks, kBlockSize, DType::kF32);
  const BatchInput batch = batch_of({{tokens(21, 4), 0, {6, 1}}});
  cpu.forward(batch, cpu_cache);
  gpu.forward(batch, gpu_cache);
  REQUIRE(gpu_cache.block_nbytes() == cpu_cache.block_nbytes());
  for (int32_t block : {6, 1}) {
    std::vector<float> host(cpu_cache.block_nbytes() / sizeof(float));
    std::vector<float> device(host.size());
    cpu_cache.read_block(block, std::as_writable_bytes(std::span(host)));
    gpu_cache.read_block(block, std::as_writable_bytes(std::span(device)), stream.get());
    CHECK(testing::relative_error(device, host) < 1e-4);
    // Written into another device cache and read back: the same bytes.
    cuda::DeviceKvCache other(w.config, kNumBlocks, kBlockSize, DType::kF32);
    other.write_block(3, std::as_bytes(std::span(device)), stream.get());
    std::vector<float> back(device.size());
    other.read_block(3, std::as_writable_bytes(std::span(back)), stream.get());
    CHECK(back == device);
  }
  std::vector<std::byte> wrong(gpu_cache.block_nbytes() + 4);
  CHECK_THROWS_WITH(gpu_cache.read_block(0, wrong, stream.get()), Catch::Contains("bytes here"));
  CHECK_THROWS_WITH(gpu_cache.read_block(
                        kNumBlocks, std::span(wrong).first(gpu_cache.block_nbytes()), stream.get()),
                    Catch::Contains("outside the pool"));
}

TEST_CASE("cuda: decode steps replayed from CUDA graphs give the eager steps' logits") {
  const ModelWeights w = tiny_weights();
  testing::TestStream stream;
  cuda::CudaForward eager(w, cuda::GemmChoice::kCublas, stream.get());
  cuda::CudaForward graphed(w, cuda::GemmChoice::kCublas, stream.get(), {8, 256});
  cuda::DeviceKvCache eager_cache(w.config, kNumBlocks, kBlockSize, DType::kF32);
  cuda::DeviceKvCache graphed_cache(w.config, kNumBlocks, kBlockSize, DType::kF32);
  std::vector<SeqSpec> seqs = {
      {tokens(9, 1), 0, {5, 2}}, {tokens(17, 2), 0, {0, 7}}, {tokens(3, 3), 0, {3}}};
  // A prefill (eager in both), then decodes of 3 sequences padded to 4: the first runs eagerly,
  // the second is captured, the rest replay.
  for (int step = 0; step < 6; ++step) {
    if (step > 0) {
      for (SeqSpec& s : seqs) {
        s.cached = int64_t(s.tokens.size());
        s.tokens.push_back(int32_t(40 + step));
      }
    }
    const BatchInput batch = batch_of(seqs);
    const std::vector<float> expected = eager.forward(batch, eager_cache);
    INFO("step " << step);
    CHECK(testing::relative_error(graphed.forward(batch, graphed_cache), expected) < 1e-5);
  }
  CHECK(graphed.graph_replays() == 4);
}

TEST_CASE("cuda: sampling on the GPU draws the host sampler's tokens from the same seeds") {
  register_cuda_executor();
  std::vector<std::vector<int32_t>> prompts;
  for (int i = 0; i < 8; ++i) prompts.push_back(tokens(5 + 3 * i, i));
  auto run = [&](bool on_device, float temperature) {
    EngineConfig c;
    c.backend = Backend::kCuda;
    c.cuda_sampling = on_device;
    Engine engine(c, make_synthetic_model(preset_config("tiny"), 4));
    std::vector<std::vector<int32_t>> out;
    for (size_t i = 0; i < prompts.size(); ++i) {
      SamplingParams p;
      p.max_tokens = 10;
      p.ignore_eos = true;
      p.temperature = temperature;
      p.top_k = i % 2 ? 40 : 0;
      p.top_p = i % 3 ? 0.9f : 1.0f;
      p.seed = 100 + i;
      out.push_back(engine.generate({prompts[i]}, p)[0].token_ids);
    }
    return out;
  };
  // Only a draw within rounding (~1e-7) of a boundary could differ: none is expected in 80.
  CHECK(run(true, 0.8f) == run(false, 0.8f));
  CHECK(run(true, 0.0f) == run(false, 0.0f));
}

TEST_CASE("cuda: mixture-of-experts logits match the CPU's, with and without a shared expert") {
  ModelConfig c = preset_config("moe-tiny");
  c.vocab_size = 512;
  check_forward(make_synthetic_model(c, 5), DType::kF32, cuda::GemmChoice::kCublas, 1e-4);
  c.moe.shared_expert_intermediate_size = 96;
  check_forward(make_synthetic_model(c, 6), DType::kF32, cuda::GemmChoice::kCublas, 1e-4);
}

}  // namespace infergate

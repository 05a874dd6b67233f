// Paged attention over a bf16 cache: decode (memory-bound: KV bytes read per second against the
// device copy) and causal prefill (FLOPs against cuBLAS's bf16 GEMM, though this kernel is fp32
// on CUDA cores). 32 query heads, 8 KV heads (GQA 4), head_dim 128, blocks of 16 positions
// scattered over the cache in random order.
#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "bench/programs/cuda/cuda_bench_util.h"
#include "kernels/cpu/convert.h"
#include "kernels/cuda/attention_decode.h"
#include "kernels/cuda/attention_prefill.h"
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/device_buffer.h"

namespace infergate::cuda_bench {
namespace {

constexpr int kHeads = 32, kKvHeads = 8, kHeadDim = 128, kBlockSize = 16;

// Random bf16 values in a device buffer of any size: one random chunk copied over and over
// (drawing a gigabyte of values on the host would take longer than the benchmark).
void fill_random_bf16(void* dst, size_t bytes, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<uint16_t> chunk(size_t(8) << 20);
  for (uint16_t& h : chunk) h = f32_to_bf16(value(rng));
  const size_t chunk_bytes = chunk.size() * sizeof(uint16_t);
  for (size_t done = 0; done < bytes; done += chunk_bytes) {
    INFERGATE_CUDA_CHECK(cudaMemcpy(static_cast<char*>(dst) + done, chunk.data(),
                                    std::min(chunk_bytes, bytes - done), cudaMemcpyHostToDevice));
  }
}

// num_seqs sequences of query_len new tokens at the end of context_len positions each.
struct PagedProblem {
  PagedProblem(int64_t num_seqs, int64_t query_len, int64_t context_len) {
    const int64_t blocks_per_seq = (context_len + kBlockSize - 1) / kBlockSize;
    const int64_t num_blocks = num_seqs * blocks_per_seq;
    const size_t cache_bytes = size_t(num_blocks) * kBlockSize * kKvHeads * kHeadDim * 2;
    k = cuda::DeviceBytes(cache_bytes);
    v = cuda::DeviceBytes(cache_bytes);
    fill_random_bf16(k.data(), cache_bytes, 1);
    fill_random_bf16(v.data(), cache_bytes, 2);

    std::vector<int32_t> ids(static_cast<size_t>(num_blocks));
    std::iota(ids.begin(), ids.end(), 0);
    std::shuffle(ids.begin(), ids.end(), std::mt19937(3));
    std::vector<cuda::DeviceAttentionSequence> host_seqs;
    for (int64_t s = 0; s < num_seqs; ++s) {
      host_seqs.push_back({s * query_len, query_len, context_len, s * blocks_per_seq});
    }
    tables = cuda::DeviceBuffer<int32_t>(ids);
    seqs = cuda::DeviceBuffer<cuda::DeviceAttentionSequence>(host_seqs);
    const int64_t q_elements = num_seqs * query_len * kHeads * kHeadDim;
    std::vector<float> host_q(static_cast<size_t>(q_elements));
    std::mt19937 rng(4);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    for (float& x : host_q) x = value(rng);
    q = cuda::DeviceBuffer<float>(host_q);
    out = cuda::DeviceBuffer<float>(host_q.size());

    batch = {seqs.data(), num_seqs, tables.data(), query_len, context_len};
    layer = {k.data(), v.data(), cuda::KvDType::kBF16, num_blocks, kBlockSize, kKvHeads, kHeadDim};
  }

  cuda::DeviceBytes k, v;
  cuda::DeviceBuffer<int32_t> tables;
  cuda::DeviceBuffer<cuda::DeviceAttentionSequence> seqs;
  cuda::DeviceBuffer<float> q, out;
  cuda::DeviceAttentionBatch batch;
  cuda::DeviceKvLayer layer;
};

const float kScale = 0.08838835f;  // 1 / sqrt(128)

// GBps: the K and V bytes of every context position, each read once; of_roofline against the
// device copy. The target on H100/H200 at batch 64, context 4096 is of_roofline >= 0.7.
void BM_AttentionDecode(benchmark::State& state) {
  const int64_t num_seqs = state.range(0), context = state.range(1);
  PagedProblem p(num_seqs, 1, context);
  cuda::DeviceBytes workspace(
      cuda::attention_decode_workspace_bytes(num_seqs, kHeads, kHeadDim, context));
  Stream stream;
  const double best = time_iterations(state, stream.get(), [&] {
    cuda::attention_decode(p.q.data(), p.batch, p.layer, kHeads, kScale, p.out.data(),
                           workspace.data(), stream.get());
  });
  const double kv_bytes = 2.0 * double(num_seqs) * double(context) * kKvHeads * kHeadDim * 2;
  set_bytes_counters(state, kv_bytes, best);
}
BENCHMARK(BM_AttentionDecode)
    ->ArgNames({"batch", "context"})
    ->Args({64, 4096})
    ->Args({8, 4096})
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

// TFLOPs of causal attention, 4 * seq^2 / 2 * head_dim * heads (QK^T and PV over the lower
// triangle); of_roofline against the cuBLAS bf16 GEMM, which an fp32 CUDA-core kernel cannot
// approach: the figure to beat when tensor cores come in.
void BM_AttentionPrefill(benchmark::State& state) {
  const int64_t seq = state.range(0);
  PagedProblem p(1, seq, seq);
  Stream stream;
  const double best = time_iterations(state, stream.get(), [&] {
    cuda::attention_prefill(p.q.data(), p.batch, p.layer, kHeads, kScale, p.out.data(),
                            stream.get());
  });
  set_flops_counters(state, 4.0 * double(seq) * double(seq) / 2 * kHeadDim * kHeads, best);
}
BENCHMARK(BM_AttentionPrefill)
    ->ArgName("seq")
    ->Arg(4096)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace infergate::cuda_bench

// BM_PagedAttention: one layer of the small model's attention (12 heads, 4 KV heads, head_dim
// 64, paged cache of dtype `kv`: 2 bf16, 5 int8, 6 fp8_e4m3, DType's values) for decode
// (sequences x 1 query) and prefill (1 x all queries).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <vector>

#include "baselines.h"
#include "bench_util.h"
#include "kernels/cpu/paged_attention.h"

namespace infergate::bench {
namespace {

void BM_PagedAttention(benchmark::State& state) {
  const int seqs = int(state.range(0)), queries = int(state.range(1)),
            context = int(state.range(2));
  constexpr int kHeads = 12, kKvHeads = 4, kHd = 64, kBlock = 16;
  const int64_t blocks_per_seq = (context + kBlock - 1) / kBlock, blocks = seqs * blocks_per_seq;
  const DType dtype = DType(state.range(3));
  const int64_t slots = blocks * kBlock, width = kKvHeads * kHd;
  std::vector<uint8_t> k(size_t(slots * width) * dtype_bytes(dtype, 1)), v(k.size());
  std::vector<float> k_scale(size_t(slots * kKvHeads)), v_scale(k_scale.size());
  KvLayerView view{k.data(), v.data(), dtype, blocks, kBlock, kKvHeads, kHd};
  if (is_scaled_kv(dtype)) {
    view.k_scale = k_scale.data();
    view.v_scale = v_scale.data();
  }
  std::vector<int64_t> slot_ids(static_cast<size_t>(slots));
  for (int64_t i = 0; i < slots; ++i) slot_ids[size_t(i)] = i;
  const std::vector<float> kv = random_activations(2 * slots * width, 1);
  write_kv(kv.data(), kv.data() + slots * width, slot_ids.data(), slots, view);
  std::vector<int32_t> table(static_cast<size_t>(blocks));
  for (int64_t b = 0; b < blocks; ++b) table[size_t(b)] = int32_t(b);
  std::vector<AttentionSequence> batch;
  for (int s = 0; s < seqs; ++s) {
    batch.push_back({int64_t(s) * queries, queries, context, table.data() + s * blocks_per_seq});
  }
  const std::vector<float> q = random_activations(int64_t(seqs) * queries * kHeads * kHd, 3);
  std::vector<float> out(q.size());
  IterationTimer timer;
  for (auto _ : state) {
    timer.start();
    paged_attention(q.data(), batch.data(), seqs, view, kHeads, 0.125f, out.data(), bench_pool());
    timer.stop();
  }
  double attended = 0;
  for (int j = 0; j < queries; ++j) attended += context - queries + j + 1;
  const double flops = 4.0 * attended * kHd * kHeads * seqs;
  const double kv_bytes = 2.0 * seqs * context * kKvHeads *
                          (kHd * double(dtype_bytes(dtype, 1)) + (is_scaled_kv(dtype) ? 4 : 0));
  report_rates(state, timer, double(seqs) * queries, kv_bytes, flops);
}
BENCHMARK(BM_PagedAttention)
    ->ArgsProduct({{1}, {1}, {256}, {2, 5, 6}})
    ->ArgsProduct({{32}, {1}, {256, 1024}, {2, 5, 6}})
    ->ArgsProduct({{1}, {512}, {512}, {2, 5, 6}})
    ->ArgNames({"seqs", "queries", "context", "kv"})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace infergate::bench

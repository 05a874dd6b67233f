#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>
#include <vector>

#include "kernels/cpu/paged_attention.h"
#include "kernels/cpu/thread_pool.h"
#include "kernels/cuda/attention_decode.h"
#include "kernels/cuda/attention_prefill.h"
#include "kernels/cuda/device_buffer.h"
#include "tests/cuda/cuda_test_util.h"
#include "tests/kernels/test_util.h"

namespace infergate {
namespace {

struct Shape {
  int head_dim, num_heads, num_kv_heads, block_size;
};

// Head dims 48, 64, 128, and 50 (no 16-byte loads: element pairs), 36 (pairs for f16/bf16
// only), 256 (the largest); GQA ratios 1, 4, 6 and 8; block sizes 16, odd ones and 1.
const std::vector<Shape> kShapes = {
    {48, 6, 6, 7},   {48, 8, 2, 16}, {64, 16, 4, 7}, {64, 12, 2, 16}, {128, 12, 2, 7},
    {128, 4, 4, 16}, {50, 6, 1, 16}, {36, 16, 2, 1}, {256, 8, 2, 5},
};
const DType kDTypes[] = {DType::kF32, DType::kF16, DType::kBF16};

using Lengths = std::vector<std::pair<int64_t, int64_t>>;  // (query_len, context_len) per sequence

// Every slot no sequence owns holds this: a kernel reading a wrong block, or past a context,
// gets scores and values far off the reference.
constexpr float kUnusedSlotValue = 1e4f;

// A batch over a random paged cache: each sequence's blocks are scattered over the cache out of
// order, with unused blocks between them; every context position is written by the CPU write_kv.
struct PagedBatch {
  DType dtype = DType::kF32;
  Shape shape{};
  int64_t num_blocks = 0, num_tokens = 0, max_query_len = 0, max_context_len = 0;
  std::vector<uint8_t> k, v;
  std::vector<int32_t> tables;  // flat
  std::vector<AttentionSequence> cpu_seqs;
  std::vector<cuda::DeviceAttentionSequence> gpu_seqs;
  std::vector<float> q;

  KvLayerView view() {
    return {k.data(),         v.data(),           dtype,         num_blocks,
            shape.block_size, shape.num_kv_heads, shape.head_dim};
  }
};

int64_t blocks_for(int64_t context_len, int block_size) {
  return (context_len + block_size - 1) / block_size;
}

PagedBatch make_batch(DType dtype, const Shape& shape, const Lengths& lengths, uint32_t seed) {
  PagedBatch b;
  b.dtype = dtype;
  b.shape = shape;
  int64_t used = 0;
  for (auto [ql, ctx] : lengths) used += blocks_for(ctx, shape.block_size);
  b.num_blocks = used + used / 2 + 3;
  const int64_t width = int64_t(shape.num_kv_heads) * shape.head_dim;
  const int64_t elements = b.num_blocks * shape.block_size * width;
  b.k.resize(dtype_bytes(dtype, elements));
  b.v.resize(b.k.size());
  const std::vector<float> unused(size_t(elements), kUnusedSlotValue);
  from_f32(unused.data(), elements, dtype, b.k.data());
  from_f32(unused.data(), elements, dtype, b.v.data());

  std::vector<int32_t> ids(static_cast<size_t>(b.num_blocks));
  std::iota(ids.begin(), ids.end(), 0);
  std::shuffle(ids.begin(), ids.end(), std::mt19937(seed));
  const KvLayerView view = b.view();
  for (auto [ql, ctx] : lengths) {
    const int64_t offset = int64_t(b.tables.size());
    std::vector<int64_t> slots;
    for (int64_t p = 0; p < ctx; ++p) {
      if (p % shape.block_size == 0) b.tables.push_back(ids[b.tables.size()]);
      slots.push_back(int64_t(b.tables.back()) * shape.block_size + p % shape.block_size);
    }
    const std::vector<float> kv = testing::random_values(2 * ctx * width, ++seed);
    write_kv(kv.data(), kv.data() + ctx * width, slots.data(), ctx, view);
    b.gpu_seqs.push_back({b.num_tokens, ql, ctx, offset});
    b.num_tokens += ql;
    b.max_query_len = std::max(b.max_query_len, ql);
    b.max_context_len = std::max(b.max_context_len, ctx);
  }
  for (const cuda::DeviceAttentionSequence& s : b.gpu_seqs) {
    b.cpu_seqs.push_back(
        {s.query_start, s.query_len, s.context_len, b.tables.data() + s.block_table_offset});
  }
  // Scaled so that the softmax is far from uniform.
  b.q = testing::random_values(b.num_tokens * shape.num_heads * shape.head_dim, seed + 1000);
  for (float& x : b.q) x *= 3.0f;
  return b;
}

float scale_for(const Shape& s) { return 1.0f / std::sqrt(float(s.head_dim)); }

std::vector<float> cpu_attention(PagedBatch& b, int64_t window = 0) {
  static ThreadPool pool(2);
  std::vector<float> out(b.q.size(), 777.0f);
  paged_attention(b.q.data(), b.cpu_seqs.data(), int64_t(b.cpu_seqs.size()), b.view(),
                  b.shape.num_heads, scale_for(b.shape), out.data(), pool, window);
  return out;
}

// What the KV manager does behind a sliding window: every block wholly before the window of a
// sequence's first query row is given back. Here its table entry points at an unused block
// (every slot 1e4), so a kernel reading behind the window gets results far off.
void release_behind_window(PagedBatch& b, int64_t window) {
  std::vector<bool> owned(size_t(b.num_blocks), false);
  for (int32_t id : b.tables) owned[size_t(id)] = true;
  const int32_t unused = int32_t(std::find(owned.begin(), owned.end(), false) - owned.begin());
  for (const cuda::DeviceAttentionSequence& s : b.gpu_seqs) {
    const int64_t lowest = s.context_len - s.query_len - window + 1;
    for (int64_t j = 0; (j + 1) * b.shape.block_size <= lowest; ++j) {
      b.tables[size_t(s.block_table_offset + j)] = unused;
    }
  }
}

cuda::KvDType kv_dtype(DType d) {
  return d == DType::kF32   ? cuda::KvDType::kF32
         : d == DType::kF16 ? cuda::KvDType::kF16
                            : cuda::KvDType::kBF16;
}

// The batch on the device, and the output poisoned.
struct DeviceBatch {
  cuda::DeviceBuffer<uint8_t> k, v;
  cuda::DeviceBuffer<int32_t> tables;
  cuda::DeviceBuffer<cuda::DeviceAttentionSequence> seqs;
  cuda::DeviceBuffer<float> q, out;
  cuda::DeviceAttentionBatch batch;
  cuda::DeviceKvLayer layer;

  explicit DeviceBatch(const PagedBatch& b)
      : k(b.k), v(b.v), tables(b.tables), seqs(b.gpu_seqs), q(b.q), out(b.q.size()) {
    out.fill_bytes(testing::kPoison);
    batch = {seqs.data(), int64_t(b.gpu_seqs.size()), tables.data(), b.max_query_len,
             b.max_context_len};
    layer = {k.data(),        v.data(),           kv_dtype(b.dtype),
             b.num_blocks,    b.shape.block_size, b.shape.num_kv_heads,
             b.shape.head_dim};
  }
};

std::vector<float> gpu_prefill(const PagedBatch& b, int64_t window = 0) {
  testing::TestStream stream;
  DeviceBatch d(b);
  cuda::attention_prefill(d.q.data(), d.batch, d.layer, b.shape.num_heads, scale_for(b.shape),
                          d.out.data(), stream.get(), window);
  stream.sync();
  return d.out.to_host();
}

std::vector<float> gpu_decode(const PagedBatch& b, int64_t window = 0) {
  testing::TestStream stream;
  DeviceBatch d(b);
  // Poisoned too: every split, empty or not, must write its partial before the combine reads it.
  cuda::DeviceBuffer<uint8_t> workspace(cuda::attention_decode_workspace_bytes(
      d.batch.num_seqs, b.shape.num_heads, b.shape.head_dim, b.max_context_len));
  workspace.fill_bytes(testing::kPoison);
  cuda::attention_decode(d.q.data(), d.batch, d.layer, b.shape.num_heads, scale_for(b.shape),
                         d.out.data(), workspace.data(), stream.get(), window);
  stream.sync();
  return d.out.to_host();
}

// fp32 caches: both sides compute in fp32 from the same values. f16/bf16: both read the same
// rounded values, so the gap is fp32 ordering too; 1e-4 leaves room and still catches any
// misread.
double tolerance(DType d) { return d == DType::kF32 ? testing::kF32Tolerance : 1e-4; }

// With a window (> 0), the blocks behind it are released first (release_behind_window).
template <typename Gpu>
void check_against_cpu(const Lengths& lengths, Gpu gpu, int64_t window = 0) {
  for (const Shape& shape : kShapes) {
    for (DType dtype : kDTypes) {
      const uint32_t seed = testing::fresh_seed();
      INFO("seed " << seed << ", " << dtype_name(dtype) << ", head_dim " << shape.head_dim
                   << ", heads " << shape.num_heads << "/" << shape.num_kv_heads << ", block_size "
                   << shape.block_size);
      PagedBatch b = make_batch(dtype, shape, lengths, seed);
      const std::vector<float> expected = cpu_attention(b, window);
      if (window > 0) release_behind_window(b, window);
      CHECK(testing::relative_error(gpu(b, window), expected) <= tolerance(dtype));
    }
  }
}

}  // namespace

TEST_CASE("cuda: attention_prefill matches paged_attention on fresh prompts of odd lengths") {
  check_against_cpu({{1, 1}, {17, 17}, {63, 63}, {65, 65}, {300, 300}}, gpu_prefill);
}

TEST_CASE("cuda: attention_prefill reads a cached prefix from the paged cache (chunked prefill)") {
  check_against_cpu({{65, 300}, {17, 81}, {64, 128}, {63, 64}, {1, 2}}, gpu_prefill);
}

TEST_CASE("cuda: attention_prefill on a mixed batch: decode rows beside prompts and chunks") {
  check_against_cpu({{1, 1}, {1, 513}, {300, 300}, {17, 400}, {1, 64}, {65, 65}}, gpu_prefill);
}

TEST_CASE("cuda: attention_decode matches paged_attention, empty splits and split edges included") {
  // With 256-position splits: 1 and 5 leave seven splits empty, 511 / 512 / 513 end just
  // before, on and after a split edge, 2000 fills eight.
  static_assert(cuda::kDecodeSplitTokens == 256, "the lengths below straddle split edges");
  const Lengths decode = {{1, 1}, {1, 5}, {1, 511}, {1, 512}, {1, 513}, {1, 2000}};
  check_against_cpu(decode, gpu_decode);
  check_against_cpu(decode, gpu_prefill);  // prefill must handle a decode batch as well
}

TEST_CASE("cuda: sliding windows match paged_attention and read nothing behind the window") {
  // Windows shorter than a tile (rows of one tile see disjoint spans), across tile and split
  // edges, and longer than every context (no effect); the blocks behind each are released.
  const Lengths prefill = {{65, 300}, {17, 81}, {300, 300}, {1, 513}, {64, 128}};
  const Lengths decode = {{1, 5}, {1, 511}, {1, 513}, {1, 2000}};
  for (const int64_t window : {1, 7, 64, 100, 300, 4096}) {
    INFO("window " << window);
    check_against_cpu(prefill, gpu_prefill, window);
    check_against_cpu(decode, gpu_decode, window);
  }
}

TEST_CASE("cuda: attention launchers reject shapes they cannot run") {
  cuda::DeviceAttentionBatch batch;
  cuda::DeviceKvLayer layer;
  layer.num_kv_heads = 2;
  for (int head_dim : {0, 47, 258}) {
    layer.head_dim = head_dim;
    CHECK_THROWS_AS(cuda::attention_prefill(nullptr, batch, layer, 4, 1.0f, nullptr, nullptr),
                    std::invalid_argument);
    CHECK_THROWS_AS(
        cuda::attention_decode(nullptr, batch, layer, 4, 1.0f, nullptr, nullptr, nullptr),
        std::invalid_argument);
  }
  layer.head_dim = 64;
  CHECK_THROWS_AS(cuda::attention_prefill(nullptr, batch, layer, 3, 1.0f, nullptr, nullptr),
                  std::invalid_argument);
  CHECK_THROWS_WITH(cuda::attention_prefill(nullptr, batch, layer, 4, 1.0f, nullptr, nullptr, -1),
                    Catch::Contains("sliding_window -1"));
  batch.num_seqs = 1;
  CHECK_THROWS_AS(cuda::attention_decode(nullptr, batch, layer, 4, 1.0f, nullptr, nullptr, nullptr),
                  std::invalid_argument);  // no workspace
  CHECK_THROWS_WITH(
      cuda::attention_decode(nullptr, batch, layer, 4, 1.0f, nullptr, nullptr, nullptr, -1),
      Catch::Contains("sliding_window -1"));
}

TEST_CASE("cuda: the decode workspace grows with every size and is empty for no sequences") {
  using cuda::attention_decode_workspace_bytes;
  CHECK(attention_decode_workspace_bytes(0, 32, 128, 4096) == 0);
  CHECK(attention_decode_workspace_bytes(1, 1, 2, 1) == 4 * sizeof(float));
  CHECK(attention_decode_workspace_bytes(64, 32, 128, 4096) ==
        size_t(64) * 32 * (4096 / 256) * (128 + 2) * sizeof(float));
  CHECK(attention_decode_workspace_bytes(2, 4, 64, 257) ==
        size_t(2) * 4 * 2 * (64 + 2) * sizeof(float));
}

}  // namespace infergate

#include <stdexcept>
#include <string>

#include "kernels/cuda/attention_decode.h"
#include "kernels/cuda/attention_kv.cuh"
#include "kernels/cuda/block_reduce.cuh"
#include "kernels/cuda/launch.cuh"

namespace infergate::cuda {
namespace {

using detail::kNegInf;
using detail::kWarpSize;

// The split kernel: a block of 4 warps per (sequence, kSub query heads sharing a KV head,
// split). A token group of G lanes (a power of two) reads one cache row, each lane kVec
// consecutive elements per load (16 bytes when head_dim allows), so a warp reads 32 / G rows at
// once and each group keeps kUnroll rows in flight.
constexpr int kWarps = 4, kThreads = kWarps * kWarpSize;
constexpr int kUnroll = 4;
constexpr int kLaneElems = 8;  // a lane's share of a row, at most (see lanes_per_row)
constexpr int kSplit = int(kDecodeSplitTokens);

struct DecodeArgs {
  const float* q;
  const DeviceAttentionSequence* seqs;
  const int32_t* block_tables;
  const void* k;
  const void* v;
  int block_size, num_kv_heads, head_dim, num_heads, group;
  float scale;
  int64_t window;  // > 0: the query sees the last `window` positions only
  int64_t max_splits;
  // Workspace: per (sequence, head, split) an unnormalized output row, the max and the sum.
  float* part_out;  // [num_seqs, num_heads, max_splits, head_dim]
  float* part_max;  // [num_seqs, num_heads, max_splits]
  float* part_sum;  // [num_seqs, num_heads, max_splits]
};

int64_t num_splits(int64_t max_context_len) {
  return max_context_len <= kSplit ? 1 : (max_context_len + kSplit - 1) / kSplit;
}

// Lanes per row: the row's chunks of kVec elements rounded up to a power of two, at most a warp.
// A lane then holds one chunk when the row has <= 32 of them, else ceil(chunks / 32) <= 8 / kVec
// (head_dim <= 256): at most kLaneElems elements either way.
__device__ inline int lanes_per_row(int chunks) {
  int g = 1;
  while (g < chunks && g < kWarpSize) g *= 2;
  return g;
}

struct TokenLanes {
  int lane;         // within the token group
  int size;         // G
  int first_token;  // the group's first token of the split
  int stride;       // token groups per block
};

__device__ inline TokenLanes token_lanes(int chunks) {
  const int g = lanes_per_row(chunks), lane = threadIdx.x % kWarpSize;
  const int warp = threadIdx.x / kWarpSize;
  return {lane % g, g, warp * (kWarpSize / g) + lane / g, kWarps * (kWarpSize / g)};
}

// Every lane of a token group gets the group's sum; called by all 32 lanes together.
__device__ inline float group_sum(float v, int group_size) {
  for (int offset = group_size / 2; offset > 0; offset /= 2) {
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  }
  return v;
}

// kSub values reduced across the block at once (max or sum); every thread gets the results.
// The first barrier also publishes the shared writes made before the call.
template <int kSub, bool kMax>
__device__ void block_reduce(float (&v)[kSub], float (*scratch)[kSub]) {
  const int lane = threadIdx.x % kWarpSize, warp = threadIdx.x / kWarpSize;
#pragma unroll
  for (int s = 0; s < kSub; ++s) {
    for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
      const float other = __shfl_xor_sync(0xffffffffu, v[s], offset);
      v[s] = kMax ? fmaxf(v[s], other) : v[s] + other;
    }
    if (lane == 0) scratch[warp][s] = v[s];
  }
  __syncthreads();
#pragma unroll
  for (int s = 0; s < kSub; ++s) {
    v[s] = scratch[0][s];
    for (int w = 1; w < kWarps; ++w)
      v[s] = kMax ? fmaxf(v[s], scratch[w][s]) : v[s] + scratch[w][s];
  }
  __syncthreads();  // scratch reusable
}

// The tokens of a block's split: their rows' element offsets (for this KV head) in shared
// memory, and how the block's lanes map onto them.
struct SplitRows {
  const int64_t* offset;
  int n;       // tokens in the split, 1 ... kSplit
  int chunks;  // kVec-element chunks per row
  TokenLanes lanes;
};

// The raw loads of kUnroll rows (tokens base + u * stride + first_token) of one group; rows
// past the split and chunks past the row load nothing and read as zeros.
template <typename Vec, int kChunks>
__device__ __forceinline__ void load_rows(const void* cache, const SplitRows& r, int base,
                                          typename Vec::Raw (&raw)[kUnroll][kChunks]) {
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) {
    const int t = base + u * r.lanes.stride + r.lanes.first_token;
#pragma unroll
    for (int k = 0; k < kChunks; ++k) {
      const int c = r.lanes.lane + r.lanes.size * k;
      raw[u][k] = t < r.n && c < r.chunks ? Vec::load(cache, r.offset[t] + c * Vec::kCount)
                                          : typename Vec::Raw{};
    }
  }
}

// The lane's chunks of the kSub query rows, zeros past the row.
template <int kVec, int kSub>
__device__ __forceinline__ void load_query(const float* q, int head_dim, const SplitRows& r,
                                           float (&qv)[kSub][kLaneElems]) {
#pragma unroll
  for (int s = 0; s < kSub; ++s) {
#pragma unroll
    for (int k = 0; k < kLaneElems / kVec; ++k) {
      const int c = r.lanes.lane + r.lanes.size * k;
#pragma unroll
      for (int e = 0; e < kVec; ++e) {
        qv[s][k * kVec + e] = c < r.chunks ? q[s * head_dim + c * kVec + e] : 0.0f;
      }
    }
  }
}

// Pass 1: every token's scaled q.k per head into s_p; mx gets the thread's maxima.
template <typename Vec, int kSub>
__device__ __forceinline__ void compute_logits(const void* k_cache, const SplitRows& r,
                                               const float (&qv)[kSub][kLaneElems], float scale,
                                               float (*s_p)[kSplit], float (&mx)[kSub]) {
  constexpr int kVec = Vec::kCount, kChunks = kLaneElems / kVec;
  for (int base = 0; base < r.n; base += r.lanes.stride * kUnroll) {
    typename Vec::Raw raw[kUnroll][kChunks];
    load_rows<Vec, kChunks>(k_cache, r, base, raw);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      float dot[kSub] = {};
#pragma unroll
      for (int k = 0; k < kChunks; ++k) {
        float x[kVec];
        Vec::to_f32(raw[u][k], x);
#pragma unroll
        for (int s = 0; s < kSub; ++s) {
#pragma unroll
          for (int e = 0; e < kVec; ++e) dot[s] = fmaf(qv[s][k * kVec + e], x[e], dot[s]);
        }
      }
      const int t = base + u * r.lanes.stride + r.lanes.first_token;
#pragma unroll
      for (int s = 0; s < kSub; ++s) {
        const float logit = group_sum(dot[s], r.lanes.size) * scale;  // all lanes shuffle
        if (t >= r.n) continue;
        mx[s] = fmaxf(mx[s], logit);
        if (r.lanes.lane == 0) s_p[s][t] = logit;
      }
    }
  }
}

// Pass 2, after the block max: s_p becomes exp(logit - max); sum gets the thread's share.
template <int kSub>
__device__ __forceinline__ void exponentiate(float (*s_p)[kSplit], int n, const float (&mx)[kSub],
                                             float (&sum)[kSub]) {
  for (int t = threadIdx.x; t < n; t += kThreads) {
#pragma unroll
    for (int s = 0; s < kSub; ++s) {
      const float e = expf(s_p[s][t] - mx[s]);
      s_p[s][t] = e;
      sum[s] += e;
    }
  }
}

// Pass 3: the lane's chunks of sum_t p_t v_t over its group's tokens.
template <typename Vec, int kSub>
__device__ __forceinline__ void accumulate_values(const void* v_cache, const SplitRows& r,
                                                  const float (*s_p)[kSplit],
                                                  float (&acc)[kSub][kLaneElems]) {
  constexpr int kVec = Vec::kCount, kChunks = kLaneElems / kVec;
  for (int base = 0; base < r.n; base += r.lanes.stride * kUnroll) {
    typename Vec::Raw raw[kUnroll][kChunks];
    load_rows<Vec, kChunks>(v_cache, r, base, raw);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int t = base + u * r.lanes.stride + r.lanes.first_token;
      if (t >= r.n) continue;
#pragma unroll
      for (int k = 0; k < kChunks; ++k) {
        float x[kVec];
        Vec::to_f32(raw[u][k], x);
#pragma unroll
        for (int s = 0; s < kSub; ++s) {
          const float p = s_p[s][t];
#pragma unroll
          for (int e = 0; e < kVec; ++e) {
            acc[s][k * kVec + e] = fmaf(p, x[e], acc[s][k * kVec + e]);
          }
        }
      }
    }
  }
}

// Sums acc over the token groups of each warp (shuffles), then over the warps (shared memory,
// in a fixed order), and writes the split's partial output rows.
template <int kVec, int kSub>
__device__ __forceinline__ void store_output(const DecodeArgs& a, int64_t part, const SplitRows& r,
                                             float (&acc)[kSub][kLaneElems],
                                             float (*s_out)[kSub][detail::kMaxHeadDim]) {
  for (int offset = r.lanes.size; offset < kWarpSize; offset *= 2) {
#pragma unroll
    for (int s = 0; s < kSub; ++s) {
#pragma unroll
      for (int i = 0; i < kLaneElems; ++i) {
        acc[s][i] += __shfl_xor_sync(0xffffffffu, acc[s][i], offset);
      }
    }
  }
  const int warp = threadIdx.x / kWarpSize;
  if (threadIdx.x % kWarpSize < r.lanes.size) {  // the first group holds the warp's sums
#pragma unroll
    for (int k = 0; k < kLaneElems / kVec; ++k) {
      const int c = r.lanes.lane + r.lanes.size * k;
      if (c >= r.chunks) break;
#pragma unroll
      for (int s = 0; s < kSub; ++s) {
#pragma unroll
        for (int e = 0; e < kVec; ++e) s_out[warp][s][c * kVec + e] = acc[s][k * kVec + e];
      }
    }
  }
  __syncthreads();
  const int D = a.head_dim;
  for (int i = threadIdx.x; i < kSub * D; i += kThreads) {
    const int s = i / D, d = i % D;
    float v = s_out[0][s][d];
    for (int w = 1; w < kWarps; ++w) v += s_out[w][s][d];
    a.part_out[(part + s * a.max_splits) * D + d] = v;
  }
}

// An empty split (past the sequence's context, or wholly before its window) is neutral: max -inf
// and sum 0. The combine skips it without reading its output row, which therefore is not written (a
// batch with one long context has many empty splits).
template <int kSub>
__device__ void write_empty(const DecodeArgs& a, int64_t part) {
  if (threadIdx.x < kSub) {
    a.part_max[part + threadIdx.x * a.max_splits] = kNegInf;
    a.part_sum[part + threadIdx.x * a.max_splits] = 0.0f;
  }
}

template <KvDType kD, int kVec, int kSub>
__global__ void __launch_bounds__(kThreads) decode_split_kernel(DecodeArgs a) {
  using Vec = detail::KvVec<kD, kVec>;
  __shared__ int64_t s_row[kSplit];
  __shared__ float s_p[kSub][kSplit];  // logits, then exp(logit - max)
  __shared__ float s_red[kWarps][kSub];
  __shared__ float s_out[kWarps][kSub][detail::kMaxHeadDim];

  const DeviceAttentionSequence seq = a.seqs[blockIdx.z];
  const int h0 = blockIdx.y * kSub, kv_head = h0 / a.group, D = a.head_dim;
  // The split's positions within the context and, with a window, within the query's window:
  // none before it is read (its blocks may have been released).
  const int64_t lowest = a.window > 0 ? max(int64_t(0), seq.context_len - a.window) : 0;
  const int64_t start = max(int64_t(blockIdx.x) * kSplit, lowest);
  const int n = int(min(int64_t(blockIdx.x + 1) * kSplit, seq.context_len) - start);
  // Head h0 + s's partial is part + s * max_splits.
  const int64_t part = (int64_t(blockIdx.z) * a.num_heads + h0) * a.max_splits + blockIdx.x;
  if (n <= 0) return write_empty<kSub>(a, part);

  const int32_t* table = a.block_tables + seq.block_table_offset;
  for (int t = threadIdx.x; t < n; t += kThreads) {
    const int64_t p = start + t;
    s_row[t] =
        detail::kv_row_offset(table[p / a.block_size], p, a.block_size, a.num_kv_heads, kv_head, D);
  }
  const SplitRows rows{s_row, n, D / kVec, token_lanes(D / kVec)};
  float qv[kSub][kLaneElems];
  load_query<kVec, kSub>(a.q + (seq.query_start * a.num_heads + h0) * D, D, rows, qv);
  __syncthreads();  // s_row

  float mx[kSub], sum[kSub] = {};
#pragma unroll
  for (int s = 0; s < kSub; ++s) mx[s] = kNegInf;
  compute_logits<Vec, kSub>(a.k, rows, qv, a.scale, s_p, mx);
  block_reduce<kSub, true>(mx, s_red);  // n >= 1, so the maxima are finite
  exponentiate<kSub>(s_p, n, mx, sum);
  block_reduce<kSub, false>(sum, s_red);
  float acc[kSub][kLaneElems] = {};
  accumulate_values<Vec, kSub>(a.v, rows, s_p, acc);
  store_output<kVec, kSub>(a, part, rows, acc, s_out);
  if (threadIdx.x == 0) {
#pragma unroll
    for (int s = 0; s < kSub; ++s) {
      a.part_max[part + s * a.max_splits] = mx[s];
      a.part_sum[part + s * a.max_splits] = sum[s];
    }
  }
}

__device__ float block_max(float v) {
  __shared__ float partial[kWarpSize];
  const int lane = threadIdx.x % kWarpSize, warp = threadIdx.x / kWarpSize;
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
  }
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  v = partial[0];
  for (int w = 1; w < int(blockDim.x / kWarpSize); ++w) v = fmaxf(v, partial[w]);
  __syncthreads();
  return v;
}

// One block per (sequence, head): rescales the splits' partials to the overall max and sums
// them. Empty splits (max -inf) are skipped: no exp(-inf - -inf) = NaN, no read of their
// unwritten output rows. The split holding the query's own position is never empty
// (context_len >= 1), so m is finite and l >= 1.
__global__ void __launch_bounds__(kThreads)
    decode_combine_kernel(const DeviceAttentionSequence* seqs, int num_heads, int head_dim,
                          int64_t max_splits, const float* part_out, const float* part_max,
                          const float* part_sum, float* out) {
  const int64_t seq = blockIdx.x / num_heads;
  const int h = blockIdx.x % num_heads;
  const int64_t part = (seq * num_heads + h) * max_splits;
  float m = kNegInf;
  for (int64_t i = threadIdx.x; i < max_splits; i += kThreads) m = fmaxf(m, part_max[part + i]);
  m = block_max(m);
  float l = 0.0f;
  for (int64_t i = threadIdx.x; i < max_splits; i += kThreads) {
    const float mi = part_max[part + i];
    if (mi != kNegInf) l += part_sum[part + i] * expf(mi - m);
  }
  l = detail::block_sum(l);
  float* orow = out + (seqs[seq].query_start * num_heads + h) * head_dim;
  for (int d = threadIdx.x; d < head_dim; d += kThreads) {
    float acc = 0.0f;
    for (int64_t i = 0; i < max_splits; ++i) {
      const float mi = part_max[part + i];
      if (mi != kNegInf) acc += expf(mi - m) * part_out[(part + i) * head_dim + d];
    }
    orow[d] = acc / l;
  }
}

template <KvDType kD, int kVec, int kSub>
void launch_split(const DecodeArgs& a, int64_t num_seqs, cudaStream_t stream) {
  const dim3 grid(unsigned(a.max_splits), unsigned(a.num_heads / kSub), unsigned(num_seqs));
  decode_split_kernel<kD, kVec, kSub><<<grid, kThreads, 0, stream>>>(a);
  INFERGATE_CUDA_CHECK_LAUNCH();
}

// Query heads per block: the largest of 4, 2, 1 dividing the group, so a block's heads share a
// KV head and its rows are read once for all of them.
template <KvDType kD, int kVec>
void launch_for_group(const DecodeArgs& a, int64_t num_seqs, cudaStream_t stream) {
  if (a.group % 4 == 0) {
    launch_split<kD, kVec, 4>(a, num_seqs, stream);
  } else if (a.group % 2 == 0) {
    launch_split<kD, kVec, 2>(a, num_seqs, stream);
  } else {
    launch_split<kD, kVec, 1>(a, num_seqs, stream);
  }
}

// 16-byte loads when head_dim and the caches' alignment allow, else element pairs.
template <KvDType kD>
void launch_for_dtype(const DecodeArgs& a, int64_t num_seqs, cudaStream_t stream) {
  constexpr int kWide = 16 / detail::kv_element_bytes(kD);
  const bool aligned =
      (reinterpret_cast<uintptr_t>(a.k) | reinterpret_cast<uintptr_t>(a.v)) % 16 == 0;
  if (a.head_dim % kWide == 0 && aligned) {
    launch_for_group<kD, kWide>(a, num_seqs, stream);
  } else {
    launch_for_group<kD, 2>(a, num_seqs, stream);
  }
}

}  // namespace

size_t attention_decode_workspace_bytes(int64_t num_seqs, int num_heads, int head_dim,
                                        int64_t max_context_len) {
  if (num_seqs <= 0 || num_heads <= 0 || head_dim <= 0) return 0;
  return size_t(num_seqs) * size_t(num_heads) * size_t(num_splits(max_context_len)) *
         size_t(head_dim + 2) * sizeof(float);
}

void attention_decode(const float* q, const DeviceAttentionBatch& batch, const DeviceKvLayer& cache,
                      int num_heads, float scale, float* out, void* workspace, cudaStream_t stream,
                      int64_t sliding_window) {
  detail::check_attention_args(batch, cache, num_heads, "attention_decode");
  if (sliding_window < 0) {
    throw std::invalid_argument("attention_decode: sliding_window " +
                                std::to_string(sliding_window) + " (allowed: 0, none, or > 0)");
  }
  if (batch.num_seqs <= 0) return;
  if (workspace == nullptr) throw std::invalid_argument("attention_decode: no workspace");
  const int64_t splits = num_splits(batch.max_context_len);
  const int64_t parts = batch.num_seqs * num_heads * splits;
  float* part_out = static_cast<float*>(workspace);
  const DecodeArgs a{q,
                     batch.seqs,
                     batch.block_tables,
                     cache.k,
                     cache.v,
                     cache.block_size,
                     cache.num_kv_heads,
                     cache.head_dim,
                     num_heads,
                     num_heads / cache.num_kv_heads,
                     scale,
                     sliding_window,
                     splits,
                     part_out,
                     part_out + parts * cache.head_dim,
                     part_out + parts * (cache.head_dim + 1)};
  switch (cache.dtype) {
    case KvDType::kF32:
      launch_for_dtype<KvDType::kF32>(a, batch.num_seqs, stream);
      break;
    case KvDType::kF16:
      launch_for_dtype<KvDType::kF16>(a, batch.num_seqs, stream);
      break;
    case KvDType::kBF16:
      launch_for_dtype<KvDType::kBF16>(a, batch.num_seqs, stream);
      break;
  }
  decode_combine_kernel<<<unsigned(batch.num_seqs * num_heads), kThreads, 0, stream>>>(
      batch.seqs, num_heads, cache.head_dim, splits, a.part_out, a.part_max, a.part_sum, out);
  INFERGATE_CUDA_CHECK_LAUNCH();
}

}  // namespace infergate::cuda

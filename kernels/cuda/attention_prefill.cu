#include <stdexcept>
#include <string>

#include "kernels/cuda/attention_kv.cuh"
#include "kernels/cuda/attention_prefill.h"
#include "kernels/cuda/launch.cuh"

namespace infergate::cuda {
namespace {

// A block owns kBr query rows of one head and walks the context in tiles of kBc positions.
// 16 x 16 threads: thread (ty, tx) owns rows ty + 16 i and tile columns tx + 16 j (i, j < 4) of
// the score tile S, and the same rows times head columns tx + 16 k of the output, so the
// per-row softmax state (max, sum, rescale) stays in its registers; a row's 16 threads are one
// half-warp, reduced with shuffles.
constexpr int kBr = 64, kBc = 64, kSide = 16, kThreads = kSide * kSide;
constexpr int kRowsPerThread = kBr / kSide, kColsPerThread = kBc / kSide;

struct PrefillArgs {
  const float* q;
  float* out;
  const DeviceAttentionSequence* seqs;
  const int32_t* block_tables;
  const void* k;
  const void* v;
  int block_size, num_kv_heads, head_dim, num_heads, group;
  float scale;
  int64_t window;  // > 0: a query at p sees (p - window, p] only
};

// Dynamic shared memory: tile row offsets, then Q [kBr][D+1], K or V [kBc][D+1], P [kBr][kBc+1].
// The odd row pitches keep column walks across threads free of bank conflicts.
size_t shared_bytes(int head_dim) {
  return kBc * sizeof(int64_t) +
         sizeof(float) * (size_t(kBr + kBc) * (head_dim + 1) + size_t(kBr) * (kBc + 1));
}

__device__ inline float half_warp_max(float v) {
  for (int offset = kSide / 2; offset > 0; offset /= 2) {
    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
  }
  return v;
}

__device__ inline float half_warp_sum(float v) {
  for (int offset = kSide / 2; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

// The tile's K (or V) rows into dst [kBc][D+1] as fp32, element pairs per load (D is even);
// rows past the last position needed (row offset -1) become zeros, so 0 * garbage never occurs.
template <KvDType kD>
__device__ void load_kv_tile(const void* base, const int64_t* row_offset, int head_dim,
                             float* dst) {
  using Pair = detail::KvVec<kD, 2>;
  const int pairs = head_dim / 2;
  for (int i = threadIdx.x; i < kBc * pairs; i += kThreads) {
    const int c = i / pairs, d = 2 * (i % pairs);
    float v[2] = {0.0f, 0.0f};
    if (row_offset[c] >= 0) Pair::to_f32(Pair::load(base, row_offset[c] + d), v);
    dst[c * (head_dim + 1) + d] = v[0];
    dst[c * (head_dim + 1) + d + 1] = v[1];
  }
}

// A thread's four query rows: their positions, running max, partial sum over the thread's own
// columns (reduced across the half-warp once, at the end) and output columns tx + 16 k.
template <int kDCols>
struct RowState {
  int64_t pos[kRowsPerThread];
  float m[kRowsPerThread], l[kRowsPerThread], o[kRowsPerThread][kDCols];
};

// S = Q K^T for the thread's 4 x 4 entries of the tile.
__device__ __forceinline__ void tile_scores(const float* qs, const float* ks, int head_dim,
                                            float (&s)[kRowsPerThread][kColsPerThread]) {
  const int ty = threadIdx.x / kSide, tx = threadIdx.x % kSide, pitch = head_dim + 1;
  for (int d = 0; d < head_dim; ++d) {
    float qv[kRowsPerThread], kv[kColsPerThread];
#pragma unroll
    for (int i = 0; i < kRowsPerThread; ++i) qv[i] = qs[(ty + kSide * i) * pitch + d];
#pragma unroll
    for (int j = 0; j < kColsPerThread; ++j) kv[j] = ks[(tx + kSide * j) * pitch + d];
#pragma unroll
    for (int i = 0; i < kRowsPerThread; ++i) {
#pragma unroll
      for (int j = 0; j < kColsPerThread; ++j) s[i][j] = fmaf(qv[i], kv[j], s[i][j]);
    }
  }
}

// Masks and scales the scores, rescales the running state to the new row maxima and writes
// P = exp(S - max) to shared memory. Without a window tile 0 holds position 0 <= pos, so a row's
// max is finite from the first tile on; with one, a row may see nothing of the first tiles: its
// max stays -inf there, and its P and correction are taken as 0 and 1, never exp(NaN).
template <int kDCols>
__device__ __forceinline__ void online_softmax(float (&s)[kRowsPerThread][kColsPerThread],
                                               int64_t p0, float scale, int64_t window,
                                               RowState<kDCols>& st, float* ps) {
  const int ty = threadIdx.x / kSide, tx = threadIdx.x % kSide;
#pragma unroll
  for (int i = 0; i < kRowsPerThread; ++i) {
    float tile_max = detail::kNegInf;
#pragma unroll
    for (int j = 0; j < kColsPerThread; ++j) {
      const int64_t p = p0 + tx + kSide * j;
      const bool seen = p <= st.pos[i] && (window <= 0 || p > st.pos[i] - window);
      s[i][j] = seen ? s[i][j] * scale : detail::kNegInf;
      tile_max = fmaxf(tile_max, s[i][j]);
    }
    const float m_new = fmaxf(st.m[i], half_warp_max(tile_max));
    const bool none_yet = m_new == detail::kNegInf;  // windowed: nothing seen so far
    const float correction = none_yet ? 1.0f : expf(st.m[i] - m_new);
    st.m[i] = m_new;
    float sum = 0.0f;
#pragma unroll
    for (int j = 0; j < kColsPerThread; ++j) {
      const float e = none_yet ? 0.0f : expf(s[i][j] - m_new);
      ps[(ty + kSide * i) * (kBc + 1) + tx + kSide * j] = e;
      sum += e;
    }
    st.l[i] = st.l[i] * correction + sum;
#pragma unroll
    for (int k = 0; k < kDCols; ++k) st.o[i][k] *= correction;
  }
}

// O += P V over the tile's first `valid` positions (the rest are masked for every row).
template <int kDCols>
__device__ __forceinline__ void accumulate_pv(const float* ps, const float* vs, int head_dim,
                                              int valid, RowState<kDCols>& st) {
  const int ty = threadIdx.x / kSide, tx = threadIdx.x % kSide, pitch = head_dim + 1;
  for (int c = 0; c < valid; ++c) {
    float p[kRowsPerThread];
#pragma unroll
    for (int i = 0; i < kRowsPerThread; ++i) p[i] = ps[(ty + kSide * i) * (kBc + 1) + c];
#pragma unroll
    for (int k = 0; k < kDCols; ++k) {
      const int d = tx + kSide * k;
      if (d >= head_dim) break;
      const float v = vs[c * pitch + d];
#pragma unroll
      for (int i = 0; i < kRowsPerThread; ++i) st.o[i][k] = fmaf(p[i], v, st.o[i][k]);
    }
  }
}

template <KvDType kD, int kDCols>
__global__ void __launch_bounds__(kThreads) prefill_kernel(PrefillArgs a) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int D = a.head_dim, pitch = D + 1;
  int64_t* row_offset = reinterpret_cast<int64_t*>(smem);
  float* qs = reinterpret_cast<float*>(row_offset + kBc);
  float* kvs = qs + kBr * pitch;
  float* ps = kvs + kBc * pitch;

  const DeviceAttentionSequence seq = a.seqs[blockIdx.z];
  // Late tiles (longest causal span) have the lowest block index, so they start first.
  const int64_t row0 = (int64_t(gridDim.x) - 1 - blockIdx.x) * kBr;
  if (row0 >= seq.query_len) return;
  const int h = blockIdx.y, kv_head = h / a.group, tid = threadIdx.x;
  const int64_t rows = min(int64_t(kBr), seq.query_len - row0);
  const int64_t first_pos = seq.context_len - seq.query_len + row0, last_pos = first_pos + rows - 1;
  const int64_t stride = int64_t(a.num_heads) * D;
  const float* q = a.q + (seq.query_start + row0) * stride + h * D;
  const int32_t* table = a.block_tables + seq.block_table_offset;

  for (int i = tid; i < kBr * D; i += kThreads) {
    const int r = i / D, d = i % D;
    qs[r * pitch + d] = r < rows ? q[r * stride + d] : 0.0f;
  }
  // Padding rows (past query_len) pretend to sit at last_pos: finite, never written.
  RowState<kDCols> st;
#pragma unroll
  for (int i = 0; i < kRowsPerThread; ++i) {
    const int r = tid / kSide + kSide * i;
    st.pos[i] = r < rows ? first_pos + r : last_pos;
    st.m[i] = detail::kNegInf;
    st.l[i] = 0.0f;
#pragma unroll
    for (int k = 0; k < kDCols; ++k) st.o[i][k] = 0.0f;
  }

  // Causal: the last tile is the one holding the block's last query position. With a window
  // the first is the one holding the first position the block's first row sees; positions
  // before it are never read (their blocks may have been released).
  const int64_t num_tiles = last_pos / kBc + 1;
  const int64_t lowest = a.window > 0 ? max(int64_t(0), first_pos - a.window + 1) : 0;
  for (int64_t tile = lowest / kBc; tile < num_tiles; ++tile) {
    const int64_t p0 = tile * kBc;
    if (tid < kBc) {
      const int64_t p = p0 + tid;
      row_offset[tid] = p <= last_pos && p >= lowest
                            ? detail::kv_row_offset(table[p / a.block_size], p, a.block_size,
                                                    a.num_kv_heads, kv_head, D)
                            : -1;
    }
    __syncthreads();  // offsets (and Q) visible; the previous tile's P and V reads are done
    load_kv_tile<kD>(a.k, row_offset, D, kvs);
    __syncthreads();
    float s[kRowsPerThread][kColsPerThread] = {};
    tile_scores(qs, kvs, D, s);
    __syncthreads();  // every thread is done with K
    load_kv_tile<kD>(a.v, row_offset, D, kvs);
    online_softmax(s, p0, a.scale, a.window, st, ps);
    __syncthreads();  // P and V visible
    accumulate_pv(ps, kvs, D, int(min(int64_t(kBc), last_pos - p0 + 1)), st);
  }

#pragma unroll
  for (int i = 0; i < kRowsPerThread; ++i) {
    const float total = half_warp_sum(st.l[i]);
    const int r = tid / kSide + kSide * i;
    if (r >= rows) continue;
#pragma unroll
    for (int k = 0; k < kDCols; ++k) {
      const int d = tid % kSide + kSide * k;
      if (d < D) a.out[(seq.query_start + row0 + r) * stride + h * D + d] = st.o[i][k] / total;
    }
  }
}

template <KvDType kD, int kDCols>
void launch(const PrefillArgs& a, dim3 grid, cudaStream_t stream) {
  const size_t bytes = shared_bytes(a.head_dim);
  const auto kernel = prefill_kernel<kD, kDCols>;
  INFERGATE_CUDA_CHECK(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
  kernel<<<grid, kThreads, bytes, stream>>>(a);
  INFERGATE_CUDA_CHECK_LAUNCH();
}

// Output columns per thread: head_dim / 16 rounded up to the instantiated 4, 8 or 16.
template <KvDType kD>
void launch_for_head_dim(const PrefillArgs& a, dim3 grid, cudaStream_t stream) {
  if (a.head_dim <= 64) {
    launch<kD, 4>(a, grid, stream);
  } else if (a.head_dim <= 128) {
    launch<kD, 8>(a, grid, stream);
  } else {
    launch<kD, 16>(a, grid, stream);
  }
}

}  // namespace

void attention_prefill(const float* q, const DeviceAttentionBatch& batch,
                       const DeviceKvLayer& cache, int num_heads, float scale, float* out,
                       cudaStream_t stream, int64_t sliding_window) {
  detail::check_attention_args(batch, cache, num_heads, "attention_prefill");
  if (sliding_window < 0) {
    throw std::invalid_argument("attention_prefill: sliding_window " +
                                std::to_string(sliding_window) + " (allowed: 0, none, or > 0)");
  }
  if (batch.num_seqs <= 0 || batch.max_query_len <= 0) return;
  const PrefillArgs a{q,
                      out,
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
                      sliding_window};
  const dim3 grid(unsigned((batch.max_query_len + kBr - 1) / kBr), unsigned(num_heads),
                  unsigned(batch.num_seqs));
  switch (cache.dtype) {
    case KvDType::kF32:
      return launch_for_head_dim<KvDType::kF32>(a, grid, stream);
    case KvDType::kF16:
      return launch_for_head_dim<KvDType::kF16>(a, grid, stream);
    case KvDType::kBF16:
      return launch_for_head_dim<KvDType::kBF16>(a, grid, stream);
  }
}

}  // namespace infergate::cuda

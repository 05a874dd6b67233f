#include <math_constants.h>

#include <climits>
#include <cub/device/device_radix_sort.cuh>
#include <stdexcept>
#include <string>

#include "kernels/cuda/block_reduce.cuh"
#include "kernels/cuda/launch.cuh"
#include "kernels/cuda/moe_routing.h"

namespace infergate::cuda {
namespace {

using detail::kWarpSize;
constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kSlots = kMoeMaxExperts / kWarpSize;  // logits per lane; lane l holds l, l + 32, ..
constexpr size_t kAlign = 256;                      // what cudaMalloc gives, for each sub-buffer

// exp rounded once to float from double: the correctly rounded result in all but rare cases, as
// glibc's expf, so the weights match the CPU's more closely than expf's 2 ulps would.
__device__ float exp_f32(float x) { return __double2float_rn(exp(double(x))); }

// A NaN would break the total order the warp reduction needs: it ranks as -inf.
__device__ float ranked(float logit) { return isnan(logit) ? -CUDART_INF_F : logit; }

struct Pick {
  float logit;
  int id;  // INT_MAX: nothing (every real candidate ranks before it)
  float prob;
};

// Logit descending, ties to the lower id: std::stable_sort's order with `>`.
__device__ bool ranks_before(const Pick& a, const Pick& b) {
  return a.logit > b.logit || (a.logit == b.logit && a.id < b.id);
}

// Every lane gets the best pick of the warp (a total order, so all lanes agree).
__device__ Pick warp_best(Pick p) {
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
    const Pick other{__shfl_xor_sync(kFullMask, p.logit, offset),
                     __shfl_xor_sync(kFullMask, p.id, offset),
                     __shfl_xor_sync(kFullMask, p.prob, offset)};
    if (ranks_before(other, p)) p = other;
  }
  return p;
}

__device__ float warp_max(float v) {
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
    v = fmaxf(v, __shfl_xor_sync(kFullMask, v, offset));
  }
  return v;
}

__device__ double warp_sum_f64(double v) {
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
    v += __shfl_xor_sync(kFullMask, v, offset);
  }
  return v;
}

// One warp per token. The softmax mirrors softmax_inplace (float exps, their sum in double, one
// float reciprocal); then top_k rounds of a warp-wide best pick over the slots not yet taken.
__global__ void topk_kernel(const float* logits, int64_t num_tokens, int num_experts, int top_k,
                            bool normalize, int32_t* topk_ids, float* topk_weights) {
  const int lane = threadIdx.x % kWarpSize;
  const int64_t t = int64_t(blockIdx.x) * (blockDim.x / kWarpSize) + threadIdx.x / kWarpSize;
  if (t >= num_tokens) return;  // the whole warp leaves together
  const float* row = logits + t * num_experts;
  float x[kSlots], p[kSlots];
  float mx = -CUDART_INF_F;
#pragma unroll
  for (int s = 0; s < kSlots; ++s) {
    const int e = lane + s * kWarpSize;
    x[s] = e < num_experts ? ranked(row[e]) : -CUDART_INF_F;
    mx = fmaxf(mx, x[s]);
  }
  mx = warp_max(mx);
  double sum = 0.0;
#pragma unroll
  for (int s = 0; s < kSlots; ++s) {
    p[s] = lane + s * kWarpSize < num_experts ? exp_f32(__fsub_rn(x[s], mx)) : 0.0f;
    sum += p[s];
  }
  const float inv = __double2float_rn(1.0 / warp_sum_f64(sum));
#pragma unroll
  for (int s = 0; s < kSlots; ++s) p[s] = __fmul_rn(p[s], inv);

  unsigned taken = 0;  // bit s: slot s already chosen
  float chosen = 0.0f;
  int32_t* ids = topk_ids + t * top_k;
  float* weights = topk_weights + t * top_k;
  for (int i = 0; i < top_k; ++i) {
    Pick best{-CUDART_INF_F, INT_MAX, 0.0f};
#pragma unroll
    for (int s = 0; s < kSlots; ++s) {
      const Pick mine{x[s], lane + s * kWarpSize, p[s]};
      if (mine.id < num_experts && !((taken >> s) & 1u) && ranks_before(mine, best)) best = mine;
    }
    best = warp_best(best);
    if (best.id % kWarpSize == lane) taken |= 1u << (best.id / kWarpSize);
    chosen = __fadd_rn(chosen, best.prob);  // in rank order, as the CPU
    if (lane == 0) {
      ids[i] = best.id;
      weights[i] = best.prob;
    }
  }
  if (normalize && lane == 0) {
    for (int i = 0; i < top_k; ++i) weights[i] = __fdiv_rn(weights[i], chosen);
  }
}

__global__ void iota_kernel(int32_t* out, int64_t n) {
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    out[i] = int32_t(i);
  }
}

// sorted_flat[p]: the flat index (token * top_k + j) that landed in permuted row p.
__global__ void scatter_kernel(const int32_t* sorted_flat, int64_t rows, int top_k,
                               int32_t* source_row, int32_t* permuted_index) {
  for (int64_t p = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; p < rows;
       p += int64_t(gridDim.x) * blockDim.x) {
    const int32_t f = sorted_flat[p];
    source_row[p] = f / top_k;
    permuted_index[f] = int32_t(p);
  }
}

// offsets[e] = the first permuted row whose expert is >= e (a binary search per expert), so
// experts nobody chose get empty ranges and offsets[num_experts] = rows.
__global__ void offsets_kernel(const int32_t* sorted_experts, int64_t rows, int num_experts,
                               int64_t* offsets) {
  for (int e = int(blockIdx.x) * blockDim.x + threadIdx.x; e <= num_experts;
       e += gridDim.x * blockDim.x) {
    int64_t lo = 0, hi = rows;
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (sorted_experts[mid] < e) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    offsets[e] = lo;
  }
}

__global__ void gather_kernel(const float* hidden, const int32_t* source_row, int64_t rows,
                              int64_t width, float* out) {
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < rows * width;
       i += int64_t(gridDim.x) * blockDim.x) {
    out[i] = hidden[int64_t(source_row[i / width]) * width + i % width];
  }
}

// The _rn intrinsics forbid contracting the multiply-add into an FMA: the CPU rounds both.
__global__ void unpermute_kernel(const float* expert_out, const int32_t* permuted_index,
                                 const float* topk_weights, int64_t num_tokens, int top_k,
                                 int64_t hidden, float* out) {
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < num_tokens * hidden;
       i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t t = i / hidden, c = i % hidden;
    float acc = 0.0f;
    for (int j = 0; j < top_k; ++j) {
      const int64_t f = t * top_k + j;
      const float x = expert_out[int64_t(permuted_index[f]) * hidden + c];
      acc = __fadd_rn(acc, __fmul_rn(topk_weights[f], x));
    }
    out[i] = acc;
  }
}

// Radix sort on the low bits only: enough for ids in [0, num_experts).
int expert_bits(int num_experts) {
  int bits = 1;
  while ((int64_t{1} << bits) < num_experts) ++bits;
  return bits;
}

int64_t routed_rows(int64_t num_tokens, int top_k, int num_experts) {
  if (top_k < 1 || num_experts < 1) {
    throw std::invalid_argument("cuda::moe_permute: top_k and num_experts must be >= 1");
  }
  const int64_t rows = num_tokens * top_k;
  if (rows > INT32_MAX) {
    throw std::invalid_argument("cuda::moe_permute: more than INT32_MAX routed rows: " +
                                std::to_string(rows));
  }
  return rows;
}

size_t aligned(size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }

// Workspace: the flat indices before and after the sort, the sorted expert ids, CUB's scratch.
struct PermuteWorkspace {
  int32_t* flat_in;
  int32_t* flat_out;
  int32_t* experts_out;
  void* cub;
  size_t cub_bytes;
};

size_t sort_bytes(int64_t rows, int num_experts) {
  size_t bytes = 0;
  INFERGATE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
      nullptr, bytes, static_cast<const int32_t*>(nullptr), static_cast<int32_t*>(nullptr),
      static_cast<const int32_t*>(nullptr), static_cast<int32_t*>(nullptr), int(rows), 0,
      expert_bits(num_experts)));
  return bytes;
}

PermuteWorkspace carve(void* workspace, int64_t rows, size_t cub_bytes) {
  char* base = static_cast<char*>(workspace);
  const size_t array = aligned(size_t(rows) * sizeof(int32_t));
  return {reinterpret_cast<int32_t*>(base), reinterpret_cast<int32_t*>(base + array),
          reinterpret_cast<int32_t*>(base + 2 * array), base + 3 * array, cub_bytes};
}

}  // namespace

void moe_topk(const float* router_logits, int64_t num_tokens, int num_experts, int top_k,
              bool normalize, int32_t* topk_ids, float* topk_weights, cudaStream_t stream) {
  if (num_experts < 1 || num_experts > kMoeMaxExperts) {
    throw std::invalid_argument("cuda::moe_topk: num_experts must be in [1, " +
                                std::to_string(kMoeMaxExperts) + "], got " +
                                std::to_string(num_experts));
  }
  if (top_k < 1 || top_k > num_experts) {
    throw std::invalid_argument("cuda::moe_topk: top_k must be in [1, num_experts = " +
                                std::to_string(num_experts) + "], got " + std::to_string(top_k));
  }
  if (num_tokens <= 0) return;
  constexpr int kTokensPerBlock = detail::kThreads / kWarpSize;
  const int64_t blocks = (num_tokens + kTokensPerBlock - 1) / kTokensPerBlock;
  topk_kernel<<<unsigned(blocks), detail::kThreads, 0, stream>>>(
      router_logits, num_tokens, num_experts, top_k, normalize, topk_ids, topk_weights);
  INFERGATE_CUDA_CHECK_LAUNCH();
}

size_t moe_permute_workspace_bytes(int64_t num_tokens, int top_k, int num_experts) {
  const int64_t rows = routed_rows(num_tokens, top_k, num_experts);
  if (rows <= 0) return 1;
  return 3 * aligned(size_t(rows) * sizeof(int32_t)) + sort_bytes(rows, num_experts);
}

void moe_permute(const int32_t* topk_ids, int64_t num_tokens, int top_k, int num_experts,
                 int64_t* expert_offsets, int32_t* source_row, int32_t* permuted_index,
                 void* workspace, cudaStream_t stream) {
  const int64_t rows = routed_rows(num_tokens, top_k, num_experts);
  if (rows <= 0) {
    INFERGATE_CUDA_CHECK(
        cudaMemsetAsync(expert_offsets, 0, (size_t(num_experts) + 1) * sizeof(int64_t), stream));
    return;
  }
  const PermuteWorkspace w = carve(workspace, rows, sort_bytes(rows, num_experts));
  iota_kernel<<<detail::grid_for(rows), detail::kThreads, 0, stream>>>(w.flat_in, rows);
  INFERGATE_CUDA_CHECK_LAUNCH();
  // LSD radix sort is stable: equal expert ids keep increasing flat indices, the CPU's order.
  size_t cub_bytes = w.cub_bytes;
  INFERGATE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(w.cub, cub_bytes, topk_ids, w.experts_out,
                                                       w.flat_in, w.flat_out, int(rows), 0,
                                                       expert_bits(num_experts), stream));
  scatter_kernel<<<detail::grid_for(rows), detail::kThreads, 0, stream>>>(
      w.flat_out, rows, top_k, source_row, permuted_index);
  INFERGATE_CUDA_CHECK_LAUNCH();
  offsets_kernel<<<detail::grid_for(int64_t(num_experts) + 1), detail::kThreads, 0, stream>>>(
      w.experts_out, rows, num_experts, expert_offsets);
  INFERGATE_CUDA_CHECK_LAUNCH();
}

void moe_gather_rows(const float* hidden, const int32_t* source_row, int64_t rows, int64_t width,
                     float* out, cudaStream_t stream) {
  if (rows <= 0 || width <= 0) return;
  gather_kernel<<<detail::grid_for(rows * width), detail::kThreads, 0, stream>>>(hidden, source_row,
                                                                                 rows, width, out);
  INFERGATE_CUDA_CHECK_LAUNCH();
}

void moe_unpermute(const float* expert_out, const int32_t* permuted_index,
                   const float* topk_weights, int64_t num_tokens, int top_k, int64_t hidden,
                   float* out, cudaStream_t stream) {
  if (num_tokens <= 0 || hidden <= 0) return;
  unpermute_kernel<<<detail::grid_for(num_tokens * hidden), detail::kThreads, 0, stream>>>(
      expert_out, permuted_index, topk_weights, num_tokens, top_k, hidden, out);
  INFERGATE_CUDA_CHECK_LAUNCH();
}

}  // namespace infergate::cuda

#include <math_constants.h>

#include <algorithm>
#include <climits>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <stdexcept>
#include <string>

#include "kernels/cuda/launch.cuh"
#include "kernels/cuda/sampling.h"

namespace infergate::cuda {
namespace {

constexpr int kThreads = detail::kThreads;
constexpr size_t kAlign = 256;                       // what cudaMalloc gives, for each sub-buffer
constexpr int64_t kMaxSortItems = int64_t{1} << 26;  // logits sorted per chunk of rows

// NaN counts as -inf (as the CPU's sanitized()); -0 becomes +0 so that equal logits are equal
// keys whatever CUB does with signed zeros.
__device__ float sanitized(float logit) {
  if (isnan(logit)) return -CUDART_INF_F;
  return logit == 0.0f ? 0.0f : logit;
}

// exp rounded once to float from double: the correctly rounded result in all but rare cases, as
// glibc's expf, so the weights match the CPU's more closely than expf's 2 ulps would.
__device__ float exp_f32(float x) { return __double2float_rn(exp(double(x))); }

// ---- greedy ----

struct Best {
  float logit;
  int32_t id;  // INT_MAX: nothing yet (every real candidate ranks before it)
};

// (logit descending, id ascending): the CPU's ranks_before, a total order once NaN is gone.
__device__ bool ranks_before(const Best& a, const Best& b) {
  return a.logit > b.logit || (a.logit == b.logit && a.id < b.id);
}

struct BetterOf {
  __device__ Best operator()(const Best& a, const Best& b) const {
    return ranks_before(b, a) ? b : a;
  }
};

__global__ void argmax_kernel(const float* logits, int64_t vocab, int32_t* out) {
  using BlockReduce = cub::BlockReduce<Best, kThreads>;
  __shared__ typename BlockReduce::TempStorage storage;
  const float* row = logits + int64_t(blockIdx.x) * vocab;
  Best best{-CUDART_INF_F, INT_MAX};
  for (int64_t i = threadIdx.x; i < vocab; i += kThreads) {
    const Best mine{sanitized(row[i]), int32_t(i)};
    if (ranks_before(mine, best)) best = mine;
  }
  best = BlockReduce(storage).Reduce(best, BetterOf{});
  if (threadIdx.x == 0) out[blockIdx.x] = best.id;
}

// ---- sampling: the sort ----

__global__ void sort_input_kernel(const float* logits, int64_t items, int64_t vocab, float* keys,
                                  int32_t* ids) {
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < items;
       i += int64_t(gridDim.x) * blockDim.x) {
    keys[i] = sanitized(logits[i]);
    ids[i] = int32_t(i % vocab);
  }
}

__global__ void segment_offsets_kernel(int64_t segments, int64_t vocab, int* offsets) {
  for (int64_t s = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; s <= segments;
       s += int64_t(gridDim.x) * blockDim.x) {
    offsets[s] = int(s * vocab);
  }
}

// ---- sampling: one block per row ----

// A row's candidates in the order the CPU walks them: rank order after any cut, id order when
// there is none (sample_token leaves them unsorted then).
struct Candidates {
  const float* logits;         // the raw row, id order
  const float* sorted_logits;  // sanitized, rank order
  const int32_t* sorted_ids;
  bool id_order;
  float max_logit;
  float temperature;

  __device__ float logit(int64_t i) const {
    return id_order ? sanitized(logits[i]) : sorted_logits[i];
  }
  __device__ int32_t id(int64_t i) const { return id_order ? int32_t(i) : sorted_ids[i]; }
  // The CPU's weight: the max gets exactly 1; float subtraction and division, then exp.
  __device__ float weight(int64_t i) const {
    const float l = logit(i);
    return l == max_logit ? 1.0f : exp_f32(__fdiv_rn(__fsub_rn(l, max_logit), temperature));
  }
};

struct Crossing {
  int64_t index;  // the first candidate satisfying the predicate, -1 if none
  double cum;     // the cumulative weight up to it, or of all n if none
};

// Walks candidates [0, n) a block-wide tile at a time, with the cumulative weight in double (a
// block scan plus the running total of the earlier tiles), and stops at the first candidate for
// which pred(weight, cumulative) holds. The same n-prefix gives bit-identical sums every call,
// so a total found by one walk is exactly the last cumulative of the next walk over it.
template <class Pred>
__device__ Crossing walk_until(const Candidates& c, int64_t n, Pred pred) {
  using BlockScan = cub::BlockScan<double, kThreads>;
  __shared__ typename BlockScan::TempStorage scan_storage;
  __shared__ double tile_end;  // the cumulative weight of the tile's last candidate
  __shared__ int first;        // the lowest thread whose candidate satisfies pred
  __shared__ double first_cum;
  double running = 0.0;
  for (int64_t base = 0; base < n; base += kThreads) {
    const int64_t i = base + threadIdx.x;
    const bool valid = i < n;
    const float w = valid ? c.weight(i) : 0.0f;
    double cum;
    BlockScan(scan_storage).InclusiveSum(double(w), cum);
    cum = running + cum;
    if (i == (n < base + kThreads ? n : base + kThreads) - 1) tile_end = cum;
    const bool hit = valid && pred(w, cum);
    if (__syncthreads_or(hit)) {
      if (threadIdx.x == 0) first = kThreads;
      __syncthreads();
      if (hit) atomicMin(&first, int(threadIdx.x));
      __syncthreads();
      if (int(threadIdx.x) == first) first_cum = cum;
      __syncthreads();
      const Crossing found{base + first, first_cum};
      __syncthreads();  // everyone has read the shared slots before a later walk reuses them
      return found;
    }
    running = tile_end;
    __syncthreads();  // tile_end read and the scan storage free before the next tile
  }
  return {-1, running};
}

struct Never {
  __device__ bool operator()(float, double) const { return false; }
};

struct MassReaches {  // top-p: the smallest prefix whose mass >= top_p * total
  double target;
  __device__ bool operator()(float, double cum) const { return cum >= target; }
};

struct DrawFalls {  // the inverse-CDF draw: zero weights cannot be drawn
  double r;
  __device__ bool operator()(float w, double cum) const { return w > 0.0f && r < cum; }
};

// The CPU's fallback when rounding puts the draw past the end: the last candidate with weight.
__device__ int64_t last_positive(const Candidates& c, int64_t n) {
  __shared__ int last;
  if (threadIdx.x == 0) last = -1;
  __syncthreads();
  int mine = -1;
  for (int64_t i = threadIdx.x; i < n; i += kThreads) {
    if (c.weight(i) > 0.0f) mine = int(i);
  }
  atomicMax(&last, mine);
  __syncthreads();
  return last;
}

// sample_token for one row, whose logits the sort has ranked (keys descending, ids ascending
// among equal keys). Greedy, and a row of -inf, take the first in rank order: the argmax.
__global__ void sample_kernel(const float* logits, const float* sorted_logits,
                              const int32_t* sorted_ids, const DeviceSamplingParams* params,
                              int64_t vocab, int32_t* out) {
  const int64_t r = blockIdx.x;
  const DeviceSamplingParams p = params[r];
  const float* keys = sorted_logits + r * vocab;
  const int32_t* ids = sorted_ids + r * vocab;
  const float max_logit = keys[0];
  if (!(p.temperature > 0.0f) || p.top_k == 1 || max_logit == -CUDART_INF_F) {
    if (threadIdx.x == 0) out[r] = ids[0];
    return;
  }
  const bool cut_k = p.top_k > 0 && p.top_k < vocab;
  const bool cut_p = p.top_p < 1.0f;
  const int64_t k = cut_k ? p.top_k : vocab;
  const Candidates c{logits + r * vocab, keys, ids, !cut_k && !cut_p, max_logit, p.temperature};
  Crossing all = walk_until(c, k, Never{});
  int64_t kept = k;
  if (cut_p) {
    const Crossing nucleus = walk_until(c, k, MassReaches{double(p.top_p) * all.cum});
    if (nucleus.index >= 0) kept = nucleus.index + 1;  // else rounding kept everything
    all.cum = nucleus.cum;
  }
  const Crossing draw = walk_until(c, kept, DrawFalls{p.uniform * all.cum});
  const int64_t pick = draw.index >= 0 ? draw.index : last_positive(c, kept);
  if (threadIdx.x == 0) out[r] = c.id(pick);
}

// ---- host side ----

void check_vocab(int64_t vocab) {
  if (vocab > INT32_MAX) {
    throw std::invalid_argument("cuda sampling: vocab must be <= INT32_MAX, got " +
                                std::to_string(vocab));
  }
}

void check_rows(int64_t rows) {  // one block per row
  if (rows > INT32_MAX) {
    throw std::invalid_argument("cuda sampling: rows must be <= INT32_MAX, got " +
                                std::to_string(rows));
  }
}

// Rows per sort: at most kMaxSortItems logits (and CUB's int item count), at least one row.
int64_t chunk_rows(int64_t rows, int64_t vocab) {
  return std::max<int64_t>(1, std::min(rows, kMaxSortItems / vocab));
}

size_t aligned(size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }

// The sort's buffers: the double buffers of keys and ids (CUB ping-pongs between them), the
// segment offsets, CUB's scratch.
struct SortWorkspace {
  cub::DoubleBuffer<float> keys;
  cub::DoubleBuffer<int32_t> ids;
  int* offsets;
  void* cub;
  size_t cub_bytes;
};

size_t sort_bytes(int64_t rows, int64_t vocab) {
  cub::DoubleBuffer<float> keys(nullptr, nullptr);
  cub::DoubleBuffer<int32_t> ids(nullptr, nullptr);
  int* const offsets = nullptr;  // the type sort_rows passes, so the same instantiation
  size_t bytes = 0;
  INFERGATE_CUDA_CHECK(cub::DeviceSegmentedRadixSort::SortPairsDescending(
      nullptr, bytes, keys, ids, int(rows * vocab), int(rows), offsets, offsets + 1));
  return bytes;
}

size_t array_bytes(int64_t rows, int64_t vocab) { return aligned(size_t(rows * vocab) * 4); }

SortWorkspace carve(void* workspace, int64_t rows, int64_t vocab) {
  char* at = static_cast<char*>(workspace);
  const size_t array = array_bytes(rows, vocab);
  float* keys = reinterpret_cast<float*>(at);
  int32_t* ids = reinterpret_cast<int32_t*>(at + 2 * array);
  int* offsets = reinterpret_cast<int*>(at + 4 * array);
  void* cub = at + 4 * array + aligned(size_t(rows + 1) * sizeof(int));
  return {{keys, keys + array / 4}, {ids, ids + array / 4}, offsets, cub, sort_bytes(rows, vocab)};
}

// Sorts `rows` rows of logits into w.keys.Current() / w.ids.Current(), each row descending by
// sanitized logit; radix sort is stable, so equal logits keep their ids ascending.
void sort_rows(const float* logits, int64_t rows, int64_t vocab, SortWorkspace& w,
               cudaStream_t stream) {
  const int64_t items = rows * vocab;
  w.keys.selector = w.ids.selector = 0;
  sort_input_kernel<<<detail::grid_for(items), kThreads, 0, stream>>>(
      logits, items, vocab, w.keys.Current(), w.ids.Current());
  INFERGATE_CUDA_CHECK_LAUNCH();
  INFERGATE_CUDA_CHECK(cub::DeviceSegmentedRadixSort::SortPairsDescending(
      w.cub, w.cub_bytes, w.keys, w.ids, int(items), int(rows), w.offsets, w.offsets + 1, 0,
      int(sizeof(float) * 8), stream));
}

}  // namespace

void argmax_rows(const float* logits, int64_t rows, int64_t vocab, int32_t* out,
                 cudaStream_t stream) {
  check_rows(rows);
  if (rows <= 0 || vocab <= 0) return;
  argmax_kernel<<<unsigned(rows), kThreads, 0, stream>>>(logits, vocab, out);
  INFERGATE_CUDA_CHECK_LAUNCH();
}

size_t sample_rows_workspace_bytes(int64_t rows, int64_t vocab) {
  check_vocab(vocab);
  if (rows <= 0 || vocab <= 0) return 1;
  const int64_t chunk = chunk_rows(rows, vocab);
  return 4 * array_bytes(chunk, vocab) + aligned(size_t(chunk + 1) * sizeof(int)) +
         sort_bytes(chunk, vocab);
}

void sample_rows(const float* logits, const DeviceSamplingParams* params, int64_t rows,
                 int64_t vocab, int32_t* out, void* workspace, cudaStream_t stream) {
  check_vocab(vocab);
  check_rows(rows);
  if (rows <= 0 || vocab <= 0) return;
  const int64_t chunk = chunk_rows(rows, vocab);
  SortWorkspace w = carve(workspace, chunk, vocab);
  segment_offsets_kernel<<<detail::grid_for(chunk + 1), kThreads, 0, stream>>>(chunk, vocab,
                                                                               w.offsets);
  INFERGATE_CUDA_CHECK_LAUNCH();
  for (int64_t first = 0; first < rows; first += chunk) {
    const int64_t n = std::min(chunk, rows - first);
    const float* chunk_logits = logits + first * vocab;
    sort_rows(chunk_logits, n, vocab, w, stream);
    sample_kernel<<<unsigned(n), kThreads, 0, stream>>>(
        chunk_logits, w.keys.Current(), w.ids.Current(), params + first, vocab, out + first);
    INFERGATE_CUDA_CHECK_LAUNCH();
  }
}

}  // namespace infergate::cuda

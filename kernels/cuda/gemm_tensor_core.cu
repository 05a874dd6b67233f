// The tiled WMMA GEMM of gemm_tensor_core.h. One 256-thread block computes a 128 x 128 tile of
// y, walking k in steps of 32 through two shared-memory stages (the next stage loads while the
// current one is multiplied). 8 warps in a 2 x 4 grid each own a 64 x 32 warp tile: 4 x 2
// fragments of 16 x 16 fp32 accumulators.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "kernels/cuda/gemm_tensor_core.h"
#include "kernels/cuda/launch.cuh"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#error "gemm_tensor_core needs sm_80 or newer (bf16 WMMA, cp.async)"
#endif

namespace infergate::cuda {
namespace {

namespace wmma = nvcuda::wmma;

constexpr int kBM = 128, kBN = 128, kBK = 32;  // block tile, and k per stage
constexpr int kWarpsM = 2, kWarpsN = 4, kThreads = kWarpsM * kWarpsN * 32;
constexpr int kWarpM = kBM / kWarpsM, kWarpN = kBN / kWarpsN;  // 64 x 32 per warp
constexpr int kFrag = 16;
constexpr int kFragsM = kWarpM / kFrag, kFragsN = kWarpN / kFrag;  // 4 x 2 fragments per warp
// Shared rows padded by 8 elements: 80-byte rows put the 8 rows a fragment load reads at once
// on distinct banks, and keep every row and fragment start 32-byte aligned (WMMA needs 32,
// cp.async 16).
constexpr int kLd = kBK + 8;
constexpr int kTileElems = kBM * kLd;        // one operand tile
constexpr int kStageElems = 2 * kTileElems;  // the x tile, then the w tile
constexpr int kStages = 2;
// The epilogue reuses the operand buffers as one 16 x kOutLd fp32 scratch per warp.
constexpr int kOutLd = kFrag + 4;
static_assert(kBM == kBN, "x and w tiles share one shape");
static_assert(kWarpsM * kWarpsN * kFrag * kOutLd * sizeof(float) <=
                  kStages * kStageElems * sizeof(uint16_t),
              "the epilogue scratch fits in the operand buffers");

using Accumulator = wmma::fragment<wmma::accumulator, kFrag, kFrag, kFrag, float>;

// 16 bytes global -> shared, bypassing L1; with `inside` false nothing is read and the 16 bytes
// are zero-filled (src-size 0), so `src` only has to be some valid address.
__device__ inline void cp_async_16(uint16_t* dst, const uint16_t* src, bool inside) {
  const unsigned dst_shared = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  const int src_bytes = inside ? 16 : 0;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst_shared), "l"(src),
               "r"(src_bytes)
               : "memory");
}

__device__ inline void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

// Waits until at most `kPending` of this thread's committed groups are still in flight.
template <int kPending>
__device__ inline void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
}

// Rows [row0, row0 + kBM) x columns [k0, k0 + kBK) of a row-major [rows, k] matrix into a
// shared tile, zero outside the matrix. In 16-byte chunks: with k % 8 == 0 and a 16-byte
// aligned matrix, a chunk is wholly inside or wholly outside.
__device__ void load_tile_async(uint16_t* tile, const uint16_t* g, int64_t rows, int64_t k,
                                int64_t row0, int64_t k0) {
  constexpr int kChunksPerRow = kBK / 8;
  for (int c = int(threadIdx.x); c < kBM * kChunksPerRow; c += kThreads) {
    const int r = c / kChunksPerRow, col = (c % kChunksPerRow) * 8;
    const int64_t gr = row0 + r, gk = k0 + col;
    const bool inside = gr < rows && gk < k;
    cp_async_16(tile + r * kLd + col, inside ? g + gr * k + gk : g, inside);
  }
}

// The same tile element by element: any k, any alignment. Consecutive threads read consecutive
// k, so the loads still coalesce.
__device__ void load_tile_scalar(uint16_t* tile, const uint16_t* g, int64_t rows, int64_t k,
                                 int64_t row0, int64_t k0) {
  for (int e = int(threadIdx.x); e < kBM * kBK; e += kThreads) {
    const int r = e / kBK, col = e % kBK;
    const int64_t gr = row0 + r, gk = k0 + col;
    tile[r * kLd + col] = (gr < rows && gk < k) ? g[gr * k + gk] : uint16_t(0);
  }
}

struct Problem {
  const uint16_t* x;
  const uint16_t* w;
  float* y;
  int64_t m, n, k;
};

// Starts loading the k0 slice of this block's x and w tiles into `stage`.
template <bool kAsync>
__device__ void load_stage(uint16_t* stage, const Problem& p, int64_t row0, int64_t col0,
                           int64_t k0) {
  if constexpr (kAsync) {
    load_tile_async(stage, p.x, p.m, p.k, row0, k0);
    load_tile_async(stage + kTileElems, p.w, p.n, p.k, col0, k0);
    cp_async_commit();
  } else {
    load_tile_scalar(stage, p.x, p.m, p.k, row0, k0);
    load_tile_scalar(stage + kTileElems, p.w, p.n, p.k, col0, k0);
  }
}

// Accumulates one stage into the warp's tile. The w tile is stored [n][k]: read as a k x n
// matrix_b it is column-major, so y = x * w^T needs no transpose.
template <typename T>
__device__ void mma_stage(const uint16_t* stage, int warp_row, int warp_col,
                          Accumulator (&acc)[kFragsM][kFragsN]) {
  const T* xs = reinterpret_cast<const T*>(stage);
  const T* ws = reinterpret_cast<const T*>(stage + kTileElems);
#pragma unroll
  for (int kk = 0; kk < kBK; kk += kFrag) {
    wmma::fragment<wmma::matrix_a, kFrag, kFrag, kFrag, T, wmma::row_major> a[kFragsM];
    wmma::fragment<wmma::matrix_b, kFrag, kFrag, kFrag, T, wmma::col_major> b[kFragsN];
#pragma unroll
    for (int i = 0; i < kFragsM; ++i) {
      wmma::load_matrix_sync(a[i], xs + (warp_row + i * kFrag) * kLd + kk, kLd);
    }
#pragma unroll
    for (int j = 0; j < kFragsN; ++j) {
      wmma::load_matrix_sync(b[j], ws + (warp_col + j * kFrag) * kLd + kk, kLd);
    }
#pragma unroll
    for (int i = 0; i < kFragsM; ++i) {
#pragma unroll
      for (int j = 0; j < kFragsN; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
  }
}

// Writes the warp's accumulators to y through its shared scratch, element by element with
// bounds checks: fragment layouts are opaque, and nothing may land outside [m, n]. The operand
// buffers must be free (a barrier after the last stage).
__device__ void store_warp_tile(Accumulator (&acc)[kFragsM][kFragsN], uint16_t* smem,
                                const Problem& p, int64_t row0, int64_t col0) {
  float* scratch = reinterpret_cast<float*>(smem) + (threadIdx.x / 32) * kFrag * kOutLd;
  const int lane = int(threadIdx.x % 32);
  for (int i = 0; i < kFragsM; ++i) {
    for (int j = 0; j < kFragsN; ++j) {
      const int64_t r0 = row0 + i * kFrag, c0 = col0 + j * kFrag;
      if (r0 >= p.m || c0 >= p.n) continue;  // warp-uniform: the whole fragment is outside
      wmma::store_matrix_sync(scratch, acc[i][j], kOutLd, wmma::mem_row_major);
      __syncwarp();
      for (int e = lane; e < kFrag * kFrag; e += 32) {
        const int r = e / kFrag, c = e % kFrag;
        if (r0 + r < p.m && c0 + c < p.n) p.y[(r0 + r) * p.n + c0 + c] = scratch[r * kOutLd + c];
      }
      __syncwarp();  // the scratch is read out before the next fragment overwrites it
    }
  }
}

template <typename T, bool kAsync>
__global__ void __launch_bounds__(kThreads) gemm_kernel(Problem p) {
  __shared__ __align__(128) uint16_t smem[kStages * kStageElems];
  const int64_t row0 = int64_t(blockIdx.y) * kBM, col0 = int64_t(blockIdx.x) * kBN;
  const int warp = int(threadIdx.x / 32);
  const int warp_row = (warp / kWarpsN) * kWarpM, warp_col = (warp % kWarpsN) * kWarpN;
  // Warps wholly outside y (small m or n) still load and synchronize, but skip the math.
  const bool active = row0 + warp_row < p.m && col0 + warp_col < p.n;

  Accumulator acc[kFragsM][kFragsN];
#pragma unroll
  for (int i = 0; i < kFragsM; ++i) {
#pragma unroll
    for (int j = 0; j < kFragsN; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
  }

  const int64_t k_tiles = (p.k + kBK - 1) / kBK;
  load_stage<kAsync>(smem, p, row0, col0, 0);
  for (int64_t t = 0; t < k_tiles; ++t) {
    // Refill the other stage (last read in iteration t - 1, before its closing barrier).
    if (t + 1 < k_tiles) {
      load_stage<kAsync>(smem + ((t + 1) % kStages) * kStageElems, p, row0, col0, (t + 1) * kBK);
      if constexpr (kAsync) cp_async_wait<1>();  // all but the newest group: stage t landed
    } else {
      if constexpr (kAsync) cp_async_wait<0>();
    }
    __syncthreads();  // stage t, loaded by every thread, is visible to all
    if (active) mma_stage<T>(smem + (t % kStages) * kStageElems, warp_row, warp_col, acc);
    __syncthreads();  // nobody still reads stage t when the next iteration refills it
  }
  if (active) store_warp_tile(acc, smem, p, row0 + warp_row, col0 + warp_col);
}

template <typename T>
void launch(const Problem& p, bool async, cudaStream_t stream) {
  const dim3 grid(unsigned((p.n + kBN - 1) / kBN), unsigned((p.m + kBM - 1) / kBM));
  if (async) {
    gemm_kernel<T, true><<<grid, kThreads, 0, stream>>>(p);
  } else {
    gemm_kernel<T, false><<<grid, kThreads, 0, stream>>>(p);
  }
  INFERGATE_CUDA_CHECK_LAUNCH();
}

void check_arguments(GemmDType dtype, int64_t m, int64_t n, int64_t k) {
  if (dtype == GemmDType::kF32) {
    throw std::invalid_argument(
        "gemm_tensor_core: operand dtype f32 is not supported (tensor cores take f16 or bf16; "
        "use CublasGemm for f32)");
  }
  if (m < 1 || n < 1 || k < 1) {
    throw std::invalid_argument("gemm_tensor_core: sizes must be >= 1, got m=" + std::to_string(m) +
                                " n=" + std::to_string(n) + " k=" + std::to_string(k));
  }
  // blockIdx.y counts row tiles (at most 65535), blockIdx.x column tiles (at most 2^31 - 1).
  if ((m + kBM - 1) / kBM > 65535 || (n + kBN - 1) / kBN > 2147483647) {
    throw std::invalid_argument("gemm_tensor_core: m=" + std::to_string(m) + " or n=" +
                                std::to_string(n) + " needs more tiles than a grid holds");
  }
}

bool aligned_16(const void* ptr) { return reinterpret_cast<uintptr_t>(ptr) % 16 == 0; }

}  // namespace

void gemm_tensor_core(const void* x, const void* w, GemmDType dtype, float* y, int64_t m, int64_t n,
                      int64_t k, cudaStream_t stream) {
  check_arguments(dtype, m, n, k);
  const Problem p{static_cast<const uint16_t*>(x), static_cast<const uint16_t*>(w), y, m, n, k};
  const bool async = k % 8 == 0 && aligned_16(x) && aligned_16(w);
  if (dtype == GemmDType::kF16) {
    launch<__half>(p, async, stream);
  } else {
    launch<__nv_bfloat16>(p, async, stream);
  }
}

}  // namespace infergate::cuda

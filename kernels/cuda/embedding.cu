#include "kernels/cuda/embedding.h"
#include "kernels/cuda/launch.cuh"

namespace infergate::cuda {
namespace {

// One thread per output element: consecutive threads copy consecutive floats of a row.
__global__ void embedding_kernel(const float* table, int64_t table_rows, int64_t dim,
                                 int64_t row_start, const int32_t* ids, int64_t n, float* out) {
  const int64_t total = n * dim;
  for (int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; idx < total;
       idx += int64_t(gridDim.x) * blockDim.x) {
    const int64_t row = int64_t(ids[idx / dim]) - row_start;
    out[idx] = row >= 0 && row < table_rows ? table[row * dim + idx % dim] : 0.0f;
  }
}

}  // namespace

void embedding_lookup(const float* table, int64_t table_rows, int64_t dim, int64_t row_start,
                      const int32_t* ids, int64_t n, float* out, cudaStream_t stream) {
  if (n <= 0 || dim <= 0) return;
  embedding_kernel<<<detail::grid_for(n * dim), detail::kThreads, 0, stream>>>(
      table, table_rows, dim, row_start, ids, n, out);
  INFERGATE_CUDA_CHECK_LAUNCH();
}

}  // namespace infergate::cuda

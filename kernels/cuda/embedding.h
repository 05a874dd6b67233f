// Embedding gather on the GPU from an fp32 table; twin of kernels/cpu/ops.h's
// embedding_lookup_shard (and of embedding_lookup when the table is whole and every id valid).
// Device pointers; queued on `stream`.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace infergate::cuda {

// table: [table_rows, dim] holding vocabulary rows [row_start, row_start + table_rows).
// out[i, :] = table[ids[i] - row_start, :], or zeros where the id is not in the table: a shard's
// missing rows, filled in by the group's all-reduce. The CPU's whole-table lookup throws on an
// id outside the vocabulary; ids here live on the device, so callers validate them beforehand.
void embedding_lookup(const float* table, int64_t table_rows, int64_t dim, int64_t row_start,
                      const int32_t* ids, int64_t n, float* out, cudaStream_t stream);

}  // namespace infergate::cuda

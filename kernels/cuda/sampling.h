// Next-token selection on the GPU, one row of logits per sequence; twins of
// engine/request/sampler.h's sample_token (greedy, and temperature / top-k / top-p sampling).
// Device pointers; queued on `stream`. Vocabularies up to INT32_MAX (ids are int32).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace infergate::cuda {

// out[r] = the id of the largest logit of row r, ties to the lowest id, NaN counting as -inf
// (all -inf or NaN: 0): sample_token's greedy choice. logits: [rows, vocab]. One block per row.
void argmax_rows(const float* logits, int64_t rows, int64_t vocab, int32_t* out,
                 cudaStream_t stream);

// One row's sampling parameters (SamplingParams' fields), plus the one draw the host made for it:
// Xoshiro256::uniform() from the request's own stream, so a seed means the same tokens on the
// CPU and the GPU. Plain data, the same layout on both sides.
struct DeviceSamplingParams {
  float temperature;  // <= 0: greedy
  int32_t top_k;      // 0 (or >= vocab): no cut; 1: greedy
  float top_p;        // 1: no nucleus cut
  double uniform;     // in [0, 1); ignored when greedy
};

// Bytes of `workspace` sample_rows needs: 16 bytes per logit of one chunk of rows (rows are
// sorted at most 2^26 logits, and at least one row, at a time) plus CUB's scratch. Asks CUB, so
// it needs a CUDA device.
size_t sample_rows_workspace_bytes(int64_t rows, int64_t vocab);

// out[r] = sample_token(logits[r, :], vocab, params[r]) with params[r].uniform as its draw.
// logits: [rows, vocab]; params: [rows] on the device. NaN logits count as -inf. A segmented
// stable sort ranks each row (logit descending, ids ascending among ties), then one block per row
// computes the weights exp((logit - max) / temperature), the top-k and top-p cuts and the
// inverse-CDF draw, walking the candidates in the CPU's order.
// Differs from the CPU only by rounding: the weights' exp (rounded once from double; glibc's
// expf is within 0.502 ulp) may differ in the last bit, and the sums in double are added in
// another order; a draw or a top-p cut landing within that rounding of a boundary may then pick
// the neighbouring candidate. Throws std::invalid_argument for vocab > INT32_MAX.
void sample_rows(const float* logits, const DeviceSamplingParams* params, int64_t rows,
                 int64_t vocab, int32_t* out, void* workspace, cudaStream_t stream);

}  // namespace infergate::cuda

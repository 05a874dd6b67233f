#include "kernels/cpu/split_qkv.h"

namespace infergate {

namespace {

void copy_with_bias(const float* in, const float* bias, int64_t width, float* out) {
  if (bias == nullptr) {
    for (int64_t j = 0; j < width; ++j) out[j] = in[j];
  } else {
    for (int64_t j = 0; j < width; ++j) out[j] = in[j] + bias[j];
  }
}

}  // namespace

void split_qkv(const float* qkv, int64_t rows, int64_t q_width, int64_t kv_width, const float* bq,
               const float* bk, const float* bv, float* q, float* k, float* v) {
  const int64_t width = q_width + 2 * kv_width;
  for (int64_t t = 0; t < rows; ++t) {
    const float* row = qkv + t * width;
    copy_with_bias(row, bq, q_width, q + t * q_width);
    copy_with_bias(row + q_width, bk, kv_width, k + t * kv_width);
    copy_with_bias(row + q_width + kv_width, bv, kv_width, v + t * kv_width);
  }
}

}  // namespace infergate

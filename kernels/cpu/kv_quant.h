// The scaled KV cache formats (int8, fp8_e4m3): each row of head_dim values (one token, one KV
// head) is stored as codes times one fp32 scale, so the row's largest magnitude maps to the
// format's largest code (127, or 448 for e4m3). Per-row scales follow the values wherever they
// go, token by token, so no calibration is needed and one outlier token costs only its own row.
#pragma once

#include <cstdint>

#include "kernels/cpu/fp8_e4m3.h"
#include "kernels/tensor.h"

namespace infergate {

inline constexpr float kInt8KvMax = 127.0f;

// Quantizes n values of `dtype` (kI8 or kF8E4M3) into `codes`; returns the row's scale
// (0 for a row of zeros, whose codes are all 0).
float quantize_kv_row(const float* x, int n, DType dtype, uint8_t* codes);
// codes times scale, as fp32.
void dequantize_kv_row(const uint8_t* codes, float scale, int n, DType dtype, float* out);

}  // namespace infergate

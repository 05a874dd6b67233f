#include "kernels/cpu/kv_quant.h"

#include <algorithm>
#include <cmath>

#include "kernels/cpu/convert.h"

namespace infergate {

float quantize_kv_row(const float* x, int n, DType dtype, uint8_t* codes) {
  float amax = 0;
  for (int i = 0; i < n; ++i) amax = std::max(amax, std::fabs(x[i]));
  if (amax == 0) {
    std::fill(codes, codes + n, uint8_t(0));
    return 0;
  }
  if (dtype == DType::kI8) {
    const float scale = amax / kInt8KvMax, inv = kInt8KvMax / amax;
    for (int i = 0; i < n; ++i) {
      const float q = std::clamp(std::nearbyint(x[i] * inv), -kInt8KvMax, kInt8KvMax);
      codes[i] = uint8_t(int8_t(q));
    }
    return scale;
  }
  const float scale = amax / kFp8E4M3Max, inv = kFp8E4M3Max / amax;
  for (int i = 0; i < n; ++i) codes[i] = f32_to_fp8_e4m3(x[i] * inv);
  return scale;
}

void dequantize_kv_row(const uint8_t* codes, float scale, int n, DType dtype, float* out) {
  if (dtype == DType::kI8) {
    for (int i = 0; i < n; ++i) out[i] = float(int8_t(codes[i])) * scale;
    return;
  }
  for (int i = 0; i < n; ++i) out[i] = fp8_e4m3_to_f32(codes[i]) * scale;
}

}  // namespace infergate

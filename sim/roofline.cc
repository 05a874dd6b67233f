#include "sim/roofline.h"

#include <algorithm>

namespace infergate {

double roofline_seconds(const Work& work, double peak_flops, double compute_efficiency,
                        double bandwidth, double memory_efficiency) {
  const double compute = work.flops / (peak_flops * compute_efficiency);
  const double memory = work.bytes / (bandwidth * memory_efficiency);
  return std::max(compute, memory);
}

Work gemm_work(double m, double n, double k, double weight_bytes, double activation_bytes) {
  return {2 * m * n * k, k * n * weight_bytes + (m * k + m * n) * activation_bytes};
}

Work attention_work(double new_tokens, double context_before, double heads, double kv_heads,
                    double head_dim, double kv_bytes, double activation_bytes) {
  // Query i (0-based) sees context_before + i + 1 keys.
  const double pairs = new_tokens * context_before + new_tokens * (new_tokens + 1) / 2;
  const double flops = 4 * pairs * heads * head_dim;  // QK^T and PV, 2 FLOPs per multiply-add
  const double context = context_before + new_tokens;
  const double kv = 2 * kv_heads * head_dim * kv_bytes;  // one token's K and V
  const double bytes = context * kv + new_tokens * kv +
                       2 * new_tokens * heads * head_dim * activation_bytes;  // Q in, O out
  return {flops, bytes};
}

}  // namespace infergate

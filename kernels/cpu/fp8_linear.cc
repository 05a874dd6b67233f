#include "kernels/cpu/fp8_linear.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/cpu/fp8_kernels.h"
#include "kernels/cpu/fp8_layout.h"
#include "kernels/cpu/parallel_chunks.h"

namespace infergate {

namespace detail {

const Fp8Kernels& fp8_kernels_for(IsaLevel level) {
#if defined(__aarch64__)
  if (level == IsaLevel::kNeon) return neon_fp8_kernels();
#endif
  if (level >= IsaLevel::kAvx512 && cpu_has_avx512_vbmi() && cpu_has_avx512_bf16()) {
    return bf16_fp8_kernels();
  }
  if (level >= IsaLevel::kAvx512 && cpu_has_avx512_vbmi()) return vbmi_fp8_kernels();
  if (level >= IsaLevel::kAvx512) return avx512_fp8_kernels();
  if (level >= IsaLevel::kAvx2) return avx2_fp8_kernels();
  return generic_fp8_kernels();
}

const char* fp8_kernels_name(IsaLevel level) {
#if defined(__aarch64__)
  if (level == IsaLevel::kNeon) return "neon";
#endif
  if (level >= IsaLevel::kAvx512 && cpu_has_avx512_vbmi()) {
    return cpu_has_avx512_bf16() ? "avx512-bf16" : "avx512-vbmi";
  }
  if (level >= IsaLevel::kAvx512) return "avx512";
  return level >= IsaLevel::kAvx2 ? "avx2" : "generic";
}

}  // namespace detail

namespace {

// Activation rows per pass over a thread's row groups: kMc * k fp32 stay in L2 while the
// groups stream past.
constexpr int64_t kMc = 64;

}  // namespace

void fp8_linear(const float* x, int64_t m, const void* w, bool grouped, int64_t n, int64_t k,
                float* y, ThreadPool& pool) {
  if (k % kFp8Block != 0) {
    throw std::invalid_argument("fp8 linear: weight rows of " + std::to_string(k) +
                                " elements are not whole " + std::to_string(kFp8Block) +
                                "-element blocks");
  }
  if (m <= 0 || n <= 0) return;
  const auto& kernels = detail::fp8_kernels_for(active_isa());
  const auto group_bytes = size_t(detail::fp8_group_bytes(k));
  const int64_t groups = detail::fp8_groups(n);
  thread_local std::vector<uint8_t> w_buffer;  // the caller's, reached through a plain pointer
  if (!grouped) {
    w_buffer.resize(group_bytes * size_t(groups));
    detail::pack_fp8_groups(static_cast<const uint8_t*>(w), n, k, w_buffer.data());
    w = w_buffer.data();
  }
  detail::parallel_chunks(pool, groups, m * n * k, [&](int64_t g0, int64_t g1) {
    const auto* first = static_cast<const uint8_t*>(w) + group_bytes * size_t(g0);
    const int64_t row0 = g0 * detail::kFp8GroupRows;
    for (int64_t m0 = 0; m0 < m; m0 += kMc) {
      kernels.dot_groups(x + m0 * k, std::min(kMc, m - m0), k, first, g1 - g0,
                         std::min(n, g1 * detail::kFp8GroupRows) - row0, y + m0 * n + row0, n);
    }
  });
}

}  // namespace infergate

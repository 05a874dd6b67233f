// AVX-512 kernels of fp8 `linear` without VBMI (compiled with the AVX-512 flags; only called
// after cpu_features.cc saw AVX-512 at run time, and where fp8_vbmi.cc's byte tables are not
// available: Skylake-X, Cascade Lake). The codes widen through fp16: sign-extended to 16 bits
// and shifted by 7, an e4m3 code is the fp16 of its value / 256 once bit 14 is cleared
// (fp8_e4m3_as_f16_bits), subnormals included, and vcvtph2ps does the rest. The loops are
// fp8_avx512_impl.h's.
#include "kernels/cpu/fp8_kernels.h"

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512DQ__)
#include <immintrin.h>

#include "kernels/cpu/fp8_avx512_impl.h"
#include "kernels/cpu/fp8_e4m3.h"

namespace infergate::detail {

namespace {

struct F16Widener {
  static constexpr float kScaleFactor = kFp8AsF16Factor;

  // 16 codes (four rows of one quad) as fp32 values / 256.
  static __m512 widen16(const uint8_t* codes) {
    const __m256i h = _mm256_slli_epi16(
        _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(codes))), 7);
    return _mm512_cvtph_ps(_mm256_and_si256(h, _mm256_set1_epi16(static_cast<short>(0xBF80))));
  }
  void widen(const uint8_t* p, __m512 w[4]) const {
    for (int j = 0; j < 4; ++j) w[j] = widen16(p + 16 * j);
  }
};

void dot_groups(const float* x, int64_t m, int64_t k, const uint8_t* w, int64_t groups,
                int64_t rows, float* c, int64_t ldc) {
  dot_groups_with(F16Widener(), x, m, k, w, groups, rows, c, ldc);
}

constexpr Fp8Kernels kAvx512Fp8Kernels = {&dot_groups};

}  // namespace

const Fp8Kernels& avx512_fp8_kernels() { return kAvx512Fp8Kernels; }

}  // namespace infergate::detail
#else
namespace infergate::detail {
const Fp8Kernels& avx512_fp8_kernels() { return avx2_fp8_kernels(); }
}  // namespace infergate::detail
#endif

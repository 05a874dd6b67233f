// AVX-512 VBMI kernels of fp8 `linear` (compiled with the AVX-512 flags plus -mavx512vbmi; only
// called after cpu_features.cc saw AVX512_VBMI, and on CPUs that also have AVX512_BF16 only by
// tests: there fp8_bf16.cc runs). The byte tables of fp8_byte_tables.h give each code's top 16
// bits, and unpacks against zero make them fp32: 64 weights become four fp32 vectors with nine
// shuffles and no conversion, where the fp16 route's two vcvtph2ps per 32 weights bound it
// (fp8_avx512.cc; 1.3x its GEMV on Zen 5). Products with the fp32 activations are exact.
#include "kernels/cpu/fp8_kernels.h"

#if defined(__AVX512VBMI__) && defined(__AVX512BW__)
#include <immintrin.h>

#include "kernels/cpu/fp8_avx512_impl.h"
#include "kernels/cpu/fp8_byte_tables.h"
#include "kernels/cpu/fp8_layout.h"

namespace infergate::detail {

namespace {

// The words of fp8_byte_tables.h, each against zero as the top half of an fp32.
struct TableWidener {
  static constexpr float kScaleFactor = 1.0f;  // the tables give the values themselves
  Fp8WordTables tables;
  explicit TableWidener(const Fp8ByteTables& t) : tables(t) {}

  // 64 codes (two quads) as w[0] rows 0-3 and w[1] rows 4-7 of the first quad, w[2] and w[3]
  // of the second, each at lane 4r + u.
  inline void widen(const uint8_t* p, __m512 w[4]) const {
    __m512i quad0, quad1;
    tables.words(p, quad0, quad1);
    const __m512i zero = _mm512_setzero_si512();
    w[0] = _mm512_castsi512_ps(_mm512_unpacklo_epi16(zero, quad0));
    w[1] = _mm512_castsi512_ps(_mm512_unpackhi_epi16(zero, quad0));
    w[2] = _mm512_castsi512_ps(_mm512_unpacklo_epi16(zero, quad1));
    w[3] = _mm512_castsi512_ps(_mm512_unpackhi_epi16(zero, quad1));
  }
};

void dot_groups(const float* x, int64_t m, int64_t k, const uint8_t* w, int64_t groups,
                int64_t rows, float* c, int64_t ldc) {
  dot_groups_with(TableWidener(fp8_byte_tables()), x, m, k, w, groups, rows, c, ldc);
}

constexpr Fp8Kernels kVbmiFp8Kernels = {&dot_groups};

}  // namespace

const Fp8Kernels& vbmi_fp8_kernels() { return kVbmiFp8Kernels; }

}  // namespace infergate::detail
#else
namespace infergate::detail {
const Fp8Kernels& vbmi_fp8_kernels() { return avx512_fp8_kernels(); }
}  // namespace infergate::detail
#endif

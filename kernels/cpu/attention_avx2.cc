// AVX2 + FMA + F16C paged attention (compiled with the AVX2 flags of kernels/CMakeLists.txt): the
// shared kernel of attention_simd_impl.h at 8 lanes, scores for 8 positions as one vector.
#include "kernels/cpu/attention_kernels.h"
#include "kernels/cpu/kv_quant.h"

#if defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)
#include <immintrin.h>

#include "kernels/cpu/attention_simd_impl.h"

namespace infergate::detail {

namespace {

// exp(x) for x <= 0 (scores minus their running max), Cephes-style: 2^n * p(r), |rel err| < 2e-7.
// x >= -87 keeps n >= -126, so 2^n is built straight into a normal float's exponent.
inline __m256 exp_nonpositive(__m256 x) {
  x = _mm256_max_ps(x, _mm256_set1_ps(-87.0f));
  const __m256 n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(1.44269504088896341f)),
                                   _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), x);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
  __m256 p = _mm256_set1_ps(1.9875691500e-4f);
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
  p = _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), _mm256_add_ps(r, _mm256_set1_ps(1.0f)));
  const __m256i two_n =
      _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
  return _mm256_mul_ps(p, _mm256_castsi256_ps(two_n));
}

inline __m256 load8(const void* base, DType dtype, int64_t index) {
  switch (dtype) {
    case DType::kBF16: {
      const __m128i h = _mm_loadu_si128(
          reinterpret_cast<const __m128i*>(static_cast<const uint16_t*>(base) + index));
      return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
    }
    case DType::kF16:
      return _mm256_cvtph_ps(_mm_loadu_si128(
          reinterpret_cast<const __m128i*>(static_cast<const uint16_t*>(base) + index)));
    default:
      return _mm256_loadu_ps(static_cast<const float*>(base) + index);
  }
}

// 8 codes of a scaled row (kv_quant.h) times `scale` (for e4m3 already times 256: the codes
// widen through fp16, whose exponent bias is 8 more).
inline __m256 load8_scaled(const uint8_t* codes, DType dtype, __m256 scale) {
  const __m128i b = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(codes));
  if (dtype == DType::kI8) {
    return _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(b)), scale);
  }
  const __m128i w = _mm_cvtepu8_epi16(b);
  const __m128i h = _mm_or_si128(_mm_slli_epi16(_mm_and_si128(w, _mm_set1_epi16(0x80)), 8),
                                 _mm_slli_epi16(_mm_and_si128(w, _mm_set1_epi16(0x7F)), 7));
  return _mm256_mul_ps(_mm256_cvtph_ps(h), scale);
}

// One row of a scaled cache (slot * num_kv_heads + head) into kd and vd.
void load_scaled_row(const KvLayerView& c, int64_t row, float* kd, float* vd) {
  const float f = c.dtype == DType::kF8E4M3 ? kFp8AsF16Factor : 1.0f;
  const __m256 ks = _mm256_set1_ps(c.k_scale[row] * f), vs = _mm256_set1_ps(c.v_scale[row] * f);
  const uint8_t* kc = static_cast<const uint8_t*>(c.k) + row * c.head_dim;
  const uint8_t* vc = static_cast<const uint8_t*>(c.v) + row * c.head_dim;
  for (int d = 0; d < c.head_dim; d += 8) {
    _mm256_storeu_ps(kd + d, load8_scaled(kc + d, c.dtype, ks));
    _mm256_storeu_ps(vd + d, load8_scaled(vc + d, c.dtype, vs));
  }
}

// Sums each of 8 vectors into one lane: result lane t = sum of a[t]'s lanes.
inline __m256 reduce8(const __m256 a[8]) {
  const __m256 s0123 = _mm256_hadd_ps(_mm256_hadd_ps(a[0], a[1]), _mm256_hadd_ps(a[2], a[3]));
  const __m256 s4567 = _mm256_hadd_ps(_mm256_hadd_ps(a[4], a[5]), _mm256_hadd_ps(a[6], a[7]));
  return _mm256_add_ps(_mm256_permute2f128_ps(s0123, s4567, 0x20),
                       _mm256_permute2f128_ps(s0123, s4567, 0x31));
}

// Scores of one (pre-scaled) query row against 8 positions of the chunk.
inline __m256 scores8(const float* q, const float* kbuf, int hd) {
  __m256 a[8];
  for (int t = 0; t < 8; ++t) a[t] = _mm256_setzero_ps();
  for (int d = 0; d < hd; d += 8) {
    const __m256 qv = _mm256_loadu_ps(q + d);
    for (int t = 0; t < 8; ++t)
      a[t] = _mm256_fmadd_ps(qv, _mm256_loadu_ps(kbuf + t * hd + d), a[t]);
  }
  return reduce8(a);
}

// The primitives of attention_simd_impl.h; masks are vectors of all-ones or all-zeros lanes.
struct Avx2 {
  using Vec = __m256;
  using Mask = __m256;
  // Four P.V accumulators per block of head_dim: they stay in registers.
  static constexpr int kLanes = 8, kScoreVecs = 1, kAccVecs = 4;

  static Vec zero() { return _mm256_setzero_ps(); }
  static Vec set1(float x) { return _mm256_set1_ps(x); }
  static Vec load(const float* p) { return _mm256_loadu_ps(p); }
  static void store(float* p, Vec v) { _mm256_storeu_ps(p, v); }
  static Vec add(Vec a, Vec b) { return _mm256_add_ps(a, b); }
  static Vec sub(Vec a, Vec b) { return _mm256_sub_ps(a, b); }
  static Vec mul(Vec a, Vec b) { return _mm256_mul_ps(a, b); }
  static Vec max(Vec a, Vec b) { return _mm256_max_ps(a, b); }
  static Vec fma(Vec a, Vec b, Vec c) { return _mm256_fmadd_ps(a, b, c); }
  static Vec exp(Vec x) { return exp_nonpositive(x); }
  static float hmax(Vec v) {
    __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    m = _mm_max_ps(m, _mm_movehl_ps(m, m));
    m = _mm_max_ss(m, _mm_movehdup_ps(m));
    return _mm_cvtss_f32(m);
  }
  static float hsum(Vec v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
  }
  static float first(Vec v) { return _mm256_cvtss_f32(v); }
  static Mask lanes_between(int lo, int hi) {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm256_castsi256_ps(
        _mm256_andnot_si256(_mm256_cmpgt_epi32(_mm256_set1_epi32(lo), lane),
                            _mm256_cmpgt_epi32(_mm256_set1_epi32(hi), lane)));
  }
  static Vec select(Mask m, Vec a, Vec b) { return _mm256_blendv_ps(b, a, m); }
  static Vec keep(Mask m, Vec a) { return _mm256_and_ps(m, a); }
  static void scores(const float* q, const float* kbuf, int hd, Vec* out) {
    out[0] = scores8(q, kbuf, hd);
  }
  // One row of the cache (slot * num_kv_heads + head) into kd and vd as fp32.
  static void load_row(const KvLayerView& c, int64_t row, float* kd, float* vd) {
    if (is_scaled_kv(c.dtype)) return load_scaled_row(c, row, kd, vd);
    const int64_t index = row * c.head_dim;
    for (int d = 0; d < c.head_dim; d += 8) {
      _mm256_storeu_ps(kd + d, load8(c.k, c.dtype, index + d));
      _mm256_storeu_ps(vd + d, load8(c.v, c.dtype, index + d));
    }
  }
};

}  // namespace

void attend_avx2(const AttentionWork& work) { attend<Avx2>(work); }

}  // namespace infergate::detail

#else  // built without AVX2 flags (non-x86 targets): never selected, but must link

namespace infergate::detail {
void attend_avx2(const AttentionWork& work) { attend_portable(work); }
}  // namespace infergate::detail

#endif

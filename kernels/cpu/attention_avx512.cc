// AVX-512 paged attention (compiled with the AVX-512 flags of kernels/CMakeLists.txt): the shared
// kernel of attention_simd_impl.h at 16 lanes, scores for 16 positions as one vector.
#include "kernels/cpu/attention_kernels.h"
#include "kernels/cpu/kv_quant.h"

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__)
#include <immintrin.h>

#include "kernels/cpu/attention_simd_impl.h"

namespace infergate::detail {

namespace {

// exp(x) for x <= 0 (scores minus their running max), Cephes-style: 2^n * p(r), |rel err| < 2e-7.
inline __m512 exp_nonpositive(__m512 x) {
  x = _mm512_max_ps(x, _mm512_set1_ps(-87.0f));
  const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)),
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), x);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
  __m512 p = _mm512_set1_ps(1.9875691500e-4f);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.3981999507e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3334519073e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1665795894e-2f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666665459e-1f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000001201e-1f));
  p = _mm512_fmadd_ps(p, _mm512_mul_ps(r, r), _mm512_add_ps(r, _mm512_set1_ps(1.0f)));
  return _mm512_scalef_ps(p, n);
}

inline __m512 load16(const void* base, DType dtype, int64_t index) {
  switch (dtype) {
    case DType::kBF16: {
      const __m256i h = _mm256_loadu_si256(
          reinterpret_cast<const __m256i*>(static_cast<const uint16_t*>(base) + index));
      return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
    }
    case DType::kF16:
      return _mm512_cvtph_ps(_mm256_loadu_si256(
          reinterpret_cast<const __m256i*>(static_cast<const uint16_t*>(base) + index)));
    default:
      return _mm512_loadu_ps(static_cast<const float*>(base) + index);
  }
}

// 16 codes of a scaled row (kv_quant.h) times `scale` (for e4m3 already times 256: the codes
// widen through fp16, whose exponent bias is 8 more).
inline __m512 load16_scaled(const uint8_t* codes, DType dtype, __m512 scale) {
  const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(codes));
  if (dtype == DType::kI8) {
    return _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(b)), scale);
  }
  const __m256i w = _mm256_cvtepu8_epi16(b);
  const __m256i h =
      _mm256_or_si256(_mm256_slli_epi16(_mm256_and_si256(w, _mm256_set1_epi16(0x80)), 8),
                      _mm256_slli_epi16(_mm256_and_si256(w, _mm256_set1_epi16(0x7F)), 7));
  return _mm512_mul_ps(_mm512_cvtph_ps(h), scale);
}

// One row of a scaled cache (slot * num_kv_heads + head) into kd and vd.
void load_scaled_row(const KvLayerView& c, int64_t row, float* kd, float* vd) {
  const float f = c.dtype == DType::kF8E4M3 ? kFp8AsF16Factor : 1.0f;
  const __m512 ks = _mm512_set1_ps(c.k_scale[row] * f), vs = _mm512_set1_ps(c.v_scale[row] * f);
  const uint8_t* kc = static_cast<const uint8_t*>(c.k) + row * c.head_dim;
  const uint8_t* vc = static_cast<const uint8_t*>(c.v) + row * c.head_dim;
  for (int d = 0; d < c.head_dim; d += 16) {
    _mm512_storeu_ps(kd + d, load16_scaled(kc + d, c.dtype, ks));
    _mm512_storeu_ps(vd + d, load16_scaled(vc + d, c.dtype, vs));
  }
}

// Sums each of 16 vectors into one lane: result lane t = sum of a[t]'s lanes.
inline __m512 reduce16(__m512 a[16]) {
  __m512 u[8], v[4];
  for (int i = 0; i < 8; ++i) {
    u[i] = _mm512_add_ps(_mm512_unpacklo_ps(a[2 * i], a[2 * i + 1]),
                         _mm512_unpackhi_ps(a[2 * i], a[2 * i + 1]));
  }
  for (int i = 0; i < 4; ++i) {
    const __m512d x = _mm512_castps_pd(u[2 * i]), y = _mm512_castps_pd(u[2 * i + 1]);
    v[i] = _mm512_add_ps(_mm512_castpd_ps(_mm512_unpacklo_pd(x, y)),
                         _mm512_castpd_ps(_mm512_unpackhi_pd(x, y)));
  }
  const __m512 x01 =
      _mm512_add_ps(_mm512_shuffle_f32x4(v[0], v[1], 0x88), _mm512_shuffle_f32x4(v[0], v[1], 0xdd));
  const __m512 x23 =
      _mm512_add_ps(_mm512_shuffle_f32x4(v[2], v[3], 0x88), _mm512_shuffle_f32x4(v[2], v[3], 0xdd));
  return _mm512_add_ps(_mm512_shuffle_f32x4(x01, x23, 0x88), _mm512_shuffle_f32x4(x01, x23, 0xdd));
}

// Scores of one (pre-scaled) query row against the 16 positions of the chunk.
inline __m512 scores16(const float* q, const float* kbuf, int hd) {
  __m512 a[16];
  for (int t = 0; t < 16; ++t) a[t] = _mm512_setzero_ps();
  for (int d = 0; d < hd; d += 16) {
    const __m512 qv = _mm512_loadu_ps(q + d);
    for (int t = 0; t < 16; ++t)
      a[t] = _mm512_fmadd_ps(qv, _mm512_loadu_ps(kbuf + t * hd + d), a[t]);
  }
  return reduce16(a);
}

// The primitives of attention_simd_impl.h; a mask is one bit a lane.
struct Avx512 {
  using Vec = __m512;
  using Mask = __mmask16;
  // Four P.V accumulators per block of head_dim: they stay in registers.
  static constexpr int kLanes = 16, kScoreVecs = 1, kAccVecs = 4;

  static Vec zero() { return _mm512_setzero_ps(); }
  static Vec set1(float x) { return _mm512_set1_ps(x); }
  static Vec load(const float* p) { return _mm512_loadu_ps(p); }
  static void store(float* p, Vec v) { _mm512_storeu_ps(p, v); }
  static Vec add(Vec a, Vec b) { return _mm512_add_ps(a, b); }
  static Vec sub(Vec a, Vec b) { return _mm512_sub_ps(a, b); }
  static Vec mul(Vec a, Vec b) { return _mm512_mul_ps(a, b); }
  static Vec max(Vec a, Vec b) { return _mm512_max_ps(a, b); }
  static Vec fma(Vec a, Vec b, Vec c) { return _mm512_fmadd_ps(a, b, c); }
  static Vec exp(Vec x) { return exp_nonpositive(x); }
  static float hmax(Vec v) { return _mm512_reduce_max_ps(v); }
  static float hsum(Vec v) { return _mm512_reduce_add_ps(v); }
  static float first(Vec v) { return _mm512_cvtss_f32(v); }
  static Mask lanes_between(int lo, int hi) {
    const __m512i lane = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    return _mm512_mask_cmplt_epi32_mask(_mm512_cmpge_epi32_mask(lane, _mm512_set1_epi32(lo)), lane,
                                        _mm512_set1_epi32(hi));
  }
  static Vec select(Mask m, Vec a, Vec b) { return _mm512_mask_blend_ps(m, b, a); }
  static Vec keep(Mask m, Vec a) { return _mm512_maskz_mov_ps(m, a); }
  static void scores(const float* q, const float* kbuf, int hd, Vec* out) {
    out[0] = scores16(q, kbuf, hd);
  }
  // One row of the cache (slot * num_kv_heads + head) into kd and vd as fp32.
  static void load_row(const KvLayerView& c, int64_t row, float* kd, float* vd) {
    if (is_scaled_kv(c.dtype)) return load_scaled_row(c, row, kd, vd);
    const int64_t index = row * c.head_dim;
    for (int d = 0; d < c.head_dim; d += 16) {
      _mm512_storeu_ps(kd + d, load16(c.k, c.dtype, index + d));
      _mm512_storeu_ps(vd + d, load16(c.v, c.dtype, index + d));
    }
  }
};

}  // namespace

void attend_avx512(const AttentionWork& work) { attend<Avx512>(work); }

}  // namespace infergate::detail

#else  // built without AVX-512 flags (non-x86 targets): never selected, but must link

namespace infergate::detail {
void attend_avx512(const AttentionWork& work) { attend_portable(work); }
}  // namespace infergate::detail

#endif

// NEON paged attention for aarch64 (Advanced SIMD is baseline there: no flags): the shared kernel
// of attention_simd_impl.h at 4 lanes, scores for 8 positions as two vectors per pass over the
// query.
#include "kernels/cpu/attention_kernels.h"
#include "kernels/cpu/kv_quant.h"

#if defined(__aarch64__)
#include <arm_neon.h>

#include "kernels/cpu/attention_simd_impl.h"

namespace infergate::detail {

namespace {

// exp(x) for x <= 0 (scores minus their running max), Cephes-style: 2^n * p(r), |rel err| < 2e-7.
// x >= -87 keeps n >= -126, so 2^n is built straight into a normal float's exponent.
inline float32x4_t exp_nonpositive(float32x4_t x) {
  x = vmaxq_f32(x, vdupq_n_f32(-87.0f));
  const float32x4_t n = vrndnq_f32(vmulq_n_f32(x, 1.44269504088896341f));
  float32x4_t r = vfmsq_f32(x, n, vdupq_n_f32(0.693359375f));  // x - n ln2, in two parts
  r = vfmsq_f32(r, n, vdupq_n_f32(-2.12194440e-4f));
  float32x4_t p = vdupq_n_f32(1.9875691500e-4f);
  p = vfmaq_f32(vdupq_n_f32(1.3981999507e-3f), p, r);
  p = vfmaq_f32(vdupq_n_f32(8.3334519073e-3f), p, r);
  p = vfmaq_f32(vdupq_n_f32(4.1665795894e-2f), p, r);
  p = vfmaq_f32(vdupq_n_f32(1.6666665459e-1f), p, r);
  p = vfmaq_f32(vdupq_n_f32(5.0000001201e-1f), p, r);
  p = vfmaq_f32(vaddq_f32(r, vdupq_n_f32(1.0f)), p, vmulq_f32(r, r));
  const int32x4_t two_n = vshlq_n_s32(vaddq_s32(vcvtnq_s32_f32(n), vdupq_n_s32(127)), 23);
  return vmulq_f32(p, vreinterpretq_f32_s32(two_n));
}

inline float32x4_t load4(const void* base, DType dtype, int64_t index) {
  switch (dtype) {
    case DType::kBF16:
      return vreinterpretq_f32_u32(
          vshll_n_u16(vld1_u16(static_cast<const uint16_t*>(base) + index), 16));
    case DType::kF16:
      return vcvt_f32_f16(
          vreinterpret_f16_u16(vld1_u16(static_cast<const uint16_t*>(base) + index)));
    default:
      return vld1q_f32(static_cast<const float*>(base) + index);
  }
}

// Lane t of the result: the sum of a[t]'s lanes (pairwise adds, no shuffles).
inline float32x4_t reduce4(const float32x4_t a[4]) {
  return vpaddq_f32(vpaddq_f32(a[0], a[1]), vpaddq_f32(a[2], a[3]));
}

// Scores of one (pre-scaled) query row against positions [0, 8) of kbuf, as two vectors: eight
// FMA chains per load of the query.
inline void scores8(const float* q, const float* kbuf, int hd, float32x4_t out[2]) {
  float32x4_t a[8];
  for (auto& v : a) v = vdupq_n_f32(0.0f);
  for (int d = 0; d < hd; d += 4) {
    const float32x4_t qv = vld1q_f32(q + d);
#pragma GCC unroll 8
    for (int t = 0; t < 8; ++t) a[t] = vfmaq_f32(a[t], qv, vld1q_f32(kbuf + t * hd + d));
  }
  out[0] = reduce4(a);
  out[1] = reduce4(a + 4);
}

// The primitives of attention_simd_impl.h; masks are vectors of all-ones or all-zeros lanes.
struct Neon {
  using Vec = float32x4_t;
  using Mask = uint32x4_t;
  // Eight accumulators per block of head_dim: 32 vector registers hold them and the loads.
  static constexpr int kLanes = 4, kScoreVecs = 2, kAccVecs = 8;

  static Vec zero() { return vdupq_n_f32(0.0f); }
  static Vec set1(float x) { return vdupq_n_f32(x); }
  static Vec load(const float* p) { return vld1q_f32(p); }
  static void store(float* p, Vec v) { vst1q_f32(p, v); }
  static Vec add(Vec a, Vec b) { return vaddq_f32(a, b); }
  static Vec sub(Vec a, Vec b) { return vsubq_f32(a, b); }
  static Vec mul(Vec a, Vec b) { return vmulq_f32(a, b); }
  static Vec max(Vec a, Vec b) { return vmaxq_f32(a, b); }
  static Vec fma(Vec a, Vec b, Vec c) { return vfmaq_f32(c, a, b); }
  static Vec exp(Vec x) { return exp_nonpositive(x); }
  static float hmax(Vec v) { return vmaxvq_f32(v); }
  static float hsum(Vec v) { return vaddvq_f32(v); }
  static float first(Vec v) { return vgetq_lane_f32(v, 0); }
  static Mask lanes_between(int lo, int hi) {
    const int32x4_t lane = {0, 1, 2, 3};
    return vandq_u32(vcgeq_s32(lane, vdupq_n_s32(lo)), vcltq_s32(lane, vdupq_n_s32(hi)));
  }
  static Vec select(Mask m, Vec a, Vec b) { return vbslq_f32(m, a, b); }
  static Vec keep(Mask m, Vec a) {
    return vreinterpretq_f32_u32(vandq_u32(m, vreinterpretq_u32_f32(a)));
  }
  static void scores(const float* q, const float* kbuf, int hd, Vec* out) {
    scores8(q, kbuf, hd, out);
  }
  // One row of the cache (slot * num_kv_heads + head) into kd and vd as fp32.
  static void load_row(const KvLayerView& c, int64_t row, float* kd, float* vd) {
    const int hd = c.head_dim;
    if (is_scaled_kv(c.dtype)) {  // scalar widening: aarch64 is checked, not tuned, here
      dequantize_kv_row(static_cast<const uint8_t*>(c.k) + row * hd, c.k_scale[row], hd, c.dtype,
                        kd);
      dequantize_kv_row(static_cast<const uint8_t*>(c.v) + row * hd, c.v_scale[row], hd, c.dtype,
                        vd);
      return;
    }
    const int64_t index = row * hd;
    for (int d = 0; d < hd; d += 4) {
      vst1q_f32(kd + d, load4(c.k, c.dtype, index + d));
      vst1q_f32(vd + d, load4(c.v, c.dtype, index + d));
    }
  }
};

}  // namespace

void attend_neon(const AttentionWork& work) { attend<Neon>(work); }

}  // namespace infergate::detail

#else  // not aarch64: never selected, but must link

namespace infergate::detail {
void attend_neon(const AttentionWork& work) { attend_portable(work); }
}  // namespace infergate::detail

#endif

// NEON paged attention for aarch64 (Advanced SIMD is baseline there: no flags): the AVX2 kernel's
// scheme at 4 lanes. One call handles a block of queries times the heads of one GQA group; each
// 64-position K/V chunk is widened to fp32 once and reused by every row, scores for 8 positions
// come out as two vectors per pass over the query, and an online softmax keeps one pass over the
// cache.
#include "kernels/cpu/attention_kernels.h"
#include "kernels/cpu/kv_quant.h"

#if defined(__aarch64__)
#include <arm_neon.h>

#include <cmath>
#include <cstring>

namespace infergate::detail {

namespace {

constexpr int kLanes = 4;
constexpr int kVecs = kKvChunk / kLanes;  // score vectors per chunk

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

// Widens K and V of positions [p0, p0 + count) for one KV head into kbuf/vbuf [64][hd]; the rows
// past count are zeroed so the score reduction never reads garbage.
void load_chunk(const AttentionWork& w, int64_t p0, int count, float* kbuf, float* vbuf) {
  const KvLayerView& c = *w.cache;
  const int hd = c.head_dim;
  for (int t = 0; t < kKvChunk; ++t) {
    float* kd = kbuf + t * hd;
    float* vd = vbuf + t * hd;
    if (t >= count) {
      std::memset(kd, 0, sizeof(float) * size_t(hd));
      std::memset(vd, 0, sizeof(float) * size_t(hd));
      continue;
    }
    const int64_t pos = p0 + t;
    const int64_t slot =
        int64_t(w.block_table[pos / c.block_size]) * c.block_size + pos % c.block_size;
    const int64_t row = slot * c.num_kv_heads + w.kv_head;
    if (is_scaled_kv(c.dtype)) {  // scalar widening: aarch64 is checked, not tuned, here
      dequantize_kv_row(static_cast<const uint8_t*>(c.k) + row * hd, c.k_scale[row], hd, c.dtype,
                        kd);
      dequantize_kv_row(static_cast<const uint8_t*>(c.v) + row * hd, c.v_scale[row], hd, c.dtype,
                        vd);
      continue;
    }
    const int64_t index = row * hd;
    for (int d = 0; d < hd; d += kLanes) {
      vst1q_f32(kd + d, load4(c.k, c.dtype, index + d));
      vst1q_f32(vd + d, load4(c.v, c.dtype, index + d));
    }
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
  for (int d = 0; d < hd; d += kLanes) {
    const float32x4_t qv = vld1q_f32(q + d);
#pragma GCC unroll 8
    for (int t = 0; t < 8; ++t) a[t] = vfmaq_f32(a[t], qv, vld1q_f32(kbuf + t * hd + d));
  }
  out[0] = reduce4(a);
  out[1] = reduce4(a + 4);
}

// acc[0, 4 NV) = corr * acc + sum over t < limit of p[t] * v[t][0, 4 NV), v rows hd apart. NV is
// a constant so that the accumulators live in registers.
template <int NV>
inline void accumulate_pv(float* acc, float corr, const float* p, int limit, const float* v,
                          int hd) {
  float32x4_t a[NV];
#pragma GCC unroll 8
  for (int i = 0; i < NV; ++i) a[i] = vmulq_n_f32(vld1q_f32(acc + kLanes * i), corr);
  for (int t = 0; t < limit; ++t) {  // positions past limit add nothing
#pragma GCC unroll 8
    for (int i = 0; i < NV; ++i) a[i] = vfmaq_n_f32(a[i], vld1q_f32(v + t * hd + kLanes * i), p[t]);
  }
#pragma GCC unroll 8
  for (int i = 0; i < NV; ++i) vst1q_f32(acc + kLanes * i, a[i]);
}

struct RowState {
  float* acc;  // [hd]
  float* max;
  float* sum;
};

// Folds one chunk (kVecs score vectors, lanes past `limit` excluded) into a row's online softmax:
// one max, one rescale and one sum per chunk.
inline void update_row(RowState row, float32x4_t s[kVecs], const uint32x4_t valid[kVecs], int limit,
                       const float* vbuf, int hd) {
  const float32x4_t neg_inf = vdupq_n_f32(-INFINITY);
  float32x4_t mx = neg_inf;
  for (int v = 0; v < kVecs; ++v) {
    s[v] = vbslq_f32(valid[v], s[v], neg_inf);
    mx = vmaxq_f32(mx, s[v]);
  }
  const float chunk_max = vmaxvq_f32(mx);
  const float new_max = chunk_max > *row.max ? chunk_max : *row.max;
  const float32x4_t nm = vdupq_n_f32(new_max);
  // exp(old - new): 0 on the first chunk (old = -inf clamps far below any score).
  const float corr = vgetq_lane_f32(exp_nonpositive(vdupq_n_f32(*row.max - new_max)), 0);
  alignas(16) float pw[kKvChunk];
  float32x4_t total = vdupq_n_f32(0.0f);
  for (int v = 0; v < kVecs; ++v) {
    const float32x4_t e = exp_nonpositive(vsubq_f32(s[v], nm));
    const float32x4_t p = vreinterpretq_f32_u32(vandq_u32(valid[v], vreinterpretq_u32_f32(e)));
    total = vaddq_f32(total, p);
    vst1q_f32(pw + kLanes * v, p);
  }
  *row.sum = *row.sum * corr + vaddvq_f32(total);
  *row.max = new_max;
  // head_dim in blocks of 32, 16 and 4 values: 8, 4 and 1 accumulators.
  int d = 0;
  for (; d + 8 * kLanes <= hd; d += 8 * kLanes) {
    accumulate_pv<8>(row.acc + d, corr, pw, limit, vbuf + d, hd);
  }
  if (d + 4 * kLanes <= hd) {
    accumulate_pv<4>(row.acc + d, corr, pw, limit, vbuf + d, hd);
    d += 4 * kLanes;
  }
  for (; d < hd; d += kLanes) accumulate_pv<1>(row.acc + d, corr, pw, limit, vbuf + d, hd);
}

}  // namespace

void attend_neon(const AttentionWork& w) {
  const int hd = w.cache->head_dim;
  const int rows = w.num_queries * w.group;  // row r: query r / group, head r % group
  float* qbuf = w.scratch;
  float* accs = qbuf + int64_t(rows) * hd;
  float* maxes = accs + int64_t(rows) * hd;
  float* sums = maxes + rows;
  float* kbuf = sums + rows;
  float* vbuf = kbuf + kKvChunk * hd;
  const int64_t stride = int64_t(w.num_heads) * hd;
  for (int r = 0; r < rows; ++r) {
    const float* src =
        w.q + (r / w.group) * stride + int64_t(w.kv_head * w.group + r % w.group) * hd;
    for (int d = 0; d < hd; d += kLanes) {
      vst1q_f32(qbuf + r * hd + d, vmulq_n_f32(vld1q_f32(src + d), w.scale));
      vst1q_f32(accs + r * hd + d, vdupq_n_f32(0.0f));
    }
    maxes[r] = -INFINITY;
    sums[r] = 0.0f;
  }
  const int64_t last = w.first_pos + w.num_queries - 1;
  static const int32_t kLaneIndex[kLanes] = {0, 1, 2, 3};
  const int32x4_t lane = vld1q_s32(kLaneIndex);
  for (int64_t p0 = 0; p0 <= last; p0 += kKvChunk) {
    const int count = int(last - p0 + 1 < kKvChunk ? last - p0 + 1 : kKvChunk);
    load_chunk(w, p0, count, kbuf, vbuf);
    // Rows go up in position: those before p0 - first_pos have seen their last position.
    const int64_t skip = p0 > w.first_pos ? (p0 - w.first_pos) * w.group : 0;
    for (int r = int(skip); r < rows; ++r) {
      const int64_t pos = w.first_pos + r / w.group;
      const int limit = int(pos - p0 + 1 < count ? pos - p0 + 1 : count);  // causal, in-chunk
      float32x4_t s[kVecs];
      uint32x4_t valid[kVecs];
      for (int v = 0; v < kVecs; v += 2) {
        if (kLanes * v < limit) {
          scores8(qbuf + r * hd, kbuf + kLanes * v * hd, hd, s + v);
        } else {
          s[v] = s[v + 1] = vdupq_n_f32(0.0f);
        }
      }
      for (int v = 0; v < kVecs; ++v) valid[v] = vcltq_s32(lane, vdupq_n_s32(limit - kLanes * v));
      update_row({accs + r * hd, maxes + r, sums + r}, s, valid, limit, vbuf, hd);
    }
  }
  for (int r = 0; r < rows; ++r) {
    float* dst = w.out + (r / w.group) * stride + int64_t(w.kv_head * w.group + r % w.group) * hd;
    const float inv = 1.0f / sums[r];
    for (int d = 0; d < hd; d += kLanes) {
      vst1q_f32(dst + d, vmulq_n_f32(vld1q_f32(accs + r * hd + d), inv));
    }
  }
}

}  // namespace infergate::detail

#else  // not aarch64: never selected, but must link

namespace infergate::detail {
void attend_neon(const AttentionWork& work) { attend_portable(work); }
}  // namespace infergate::detail

#endif

// AVX2 + FMA + F16C paged attention (compiled with the AVX2 flags of kernels/CMakeLists.txt): the
// AVX-512 kernel's scheme at 8 lanes. One call handles a block of queries times the heads of one
// GQA group; each 64-position K/V chunk is widened to fp32 once and reused by every row, scores
// for 8 positions come out as one vector, and an online softmax keeps one pass over the cache.
#include "kernels/cpu/attention_kernels.h"
#include "kernels/cpu/kv_quant.h"

#if defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)
#include <immintrin.h>

#include <cmath>
#include <cstring>

namespace infergate::detail {

namespace {

constexpr int kLanes = 8;
constexpr int kVecs = kKvChunk / kLanes;

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

inline float hmax(__m256 v) {
  __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  m = _mm_max_ps(m, _mm_movehl_ps(m, m));
  m = _mm_max_ss(m, _mm_movehdup_ps(m));
  return _mm_cvtss_f32(m);
}

inline float hsum(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
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
  for (int d = 0; d < c.head_dim; d += kLanes) {
    _mm256_storeu_ps(kd + d, load8_scaled(kc + d, c.dtype, ks));
    _mm256_storeu_ps(vd + d, load8_scaled(vc + d, c.dtype, vs));
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
    if (is_scaled_kv(c.dtype)) {
      load_scaled_row(c, slot * c.num_kv_heads + w.kv_head, kd, vd);
      continue;
    }
    const int64_t index = (slot * c.num_kv_heads + w.kv_head) * hd;
    for (int d = 0; d < hd; d += kLanes) {
      _mm256_storeu_ps(kd + d, load8(c.k, c.dtype, index + d));
      _mm256_storeu_ps(vd + d, load8(c.v, c.dtype, index + d));
    }
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
  for (int d = 0; d < hd; d += kLanes) {
    const __m256 qv = _mm256_loadu_ps(q + d);
    for (int t = 0; t < 8; ++t)
      a[t] = _mm256_fmadd_ps(qv, _mm256_loadu_ps(kbuf + t * hd + d), a[t]);
  }
  return reduce8(a);
}

struct RowState {
  float* acc;  // [hd]
  float* max;
  float* sum;
};

// Folds one chunk (kVecs score vectors, lanes past `limit` excluded) into a row's online softmax:
// one max, one rescale and one sum per chunk.
inline void update_row(RowState row, __m256 s[kVecs], const __m256 valid[kVecs], int limit,
                       const float* vbuf, int hd) {
  const __m256 neg_inf = _mm256_set1_ps(-INFINITY);
  __m256 mx = neg_inf;
  for (int v = 0; v < kVecs; ++v) {
    s[v] = _mm256_blendv_ps(neg_inf, s[v], valid[v]);
    mx = _mm256_max_ps(mx, s[v]);
  }
  const float chunk_max = hmax(mx);
  const float new_max = chunk_max > *row.max ? chunk_max : *row.max;
  const __m256 nm = _mm256_set1_ps(new_max);
  // exp(old - new): 0 on the first chunk (old = -inf clamps far below any score).
  const __m256 corr = exp_nonpositive(_mm256_sub_ps(_mm256_set1_ps(*row.max), nm));
  alignas(32) float pw[kKvChunk];
  __m256 total = _mm256_setzero_ps();
  for (int v = 0; v < kVecs; ++v) {
    const __m256 p = _mm256_and_ps(valid[v], exp_nonpositive(_mm256_sub_ps(s[v], nm)));
    total = _mm256_add_ps(total, p);
    _mm256_store_ps(pw + kLanes * v, p);
  }
  *row.sum = *row.sum * _mm256_cvtss_f32(corr) + hsum(total);
  *row.max = new_max;
  for (int d = 0; d < hd; d += 32) {  // up to four accumulator vectors stay in registers
    const int nv = (hd - d) / kLanes < 4 ? (hd - d) / kLanes : 4;
    __m256 acc[4];
    for (int i = 0; i < nv; ++i)
      acc[i] = _mm256_mul_ps(_mm256_loadu_ps(row.acc + d + kLanes * i), corr);
    for (int t = 0; t < limit; ++t) {  // positions past limit add nothing
      const __m256 pt = _mm256_set1_ps(pw[t]);
      for (int i = 0; i < nv; ++i) {
        acc[i] = _mm256_fmadd_ps(pt, _mm256_loadu_ps(vbuf + t * hd + d + kLanes * i), acc[i]);
      }
    }
    for (int i = 0; i < nv; ++i) _mm256_storeu_ps(row.acc + d + kLanes * i, acc[i]);
  }
}

}  // namespace

void attend_avx2(const AttentionWork& w) {
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
      _mm256_storeu_ps(qbuf + r * hd + d,
                       _mm256_mul_ps(_mm256_loadu_ps(src + d), _mm256_set1_ps(w.scale)));
      _mm256_storeu_ps(accs + r * hd + d, _mm256_setzero_ps());
    }
    maxes[r] = -INFINITY;
    sums[r] = 0.0f;
  }
  const int64_t last = w.first_pos + w.num_queries - 1;
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  for (int64_t p0 = 0; p0 <= last; p0 += kKvChunk) {
    const int count = int(last - p0 + 1 < kKvChunk ? last - p0 + 1 : kKvChunk);
    load_chunk(w, p0, count, kbuf, vbuf);
    // Rows go up in position: those before p0 - first_pos have seen their last position.
    const int64_t skip = p0 > w.first_pos ? (p0 - w.first_pos) * w.group : 0;
    for (int r = int(skip); r < rows; ++r) {
      const int64_t pos = w.first_pos + r / w.group;
      const int limit = int(pos - p0 + 1 < count ? pos - p0 + 1 : count);  // causal, in-chunk
      __m256 s[kVecs], valid[kVecs];
      for (int v = 0; v < kVecs; ++v) {
        valid[v] =
            _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(limit - kLanes * v), lane));
        s[v] = kLanes * v < limit ? scores8(qbuf + r * hd, kbuf + kLanes * v * hd, hd)
                                  : _mm256_setzero_ps();
      }
      update_row({accs + r * hd, maxes + r, sums + r}, s, valid, limit, vbuf, hd);
    }
  }
  for (int r = 0; r < rows; ++r) {
    float* dst = w.out + (r / w.group) * stride + int64_t(w.kv_head * w.group + r % w.group) * hd;
    const __m256 inv = _mm256_set1_ps(1.0f / sums[r]);
    for (int d = 0; d < hd; d += kLanes) {
      _mm256_storeu_ps(dst + d, _mm256_mul_ps(_mm256_loadu_ps(accs + r * hd + d), inv));
    }
  }
}

}  // namespace infergate::detail

#else  // built without AVX2 flags (non-x86 targets): never selected, but must link

namespace infergate::detail {
void attend_avx2(const AttentionWork& work) { attend_portable(work); }
}  // namespace infergate::detail

#endif

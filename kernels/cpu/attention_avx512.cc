// AVX-512 paged attention (compiled with the AVX-512 flags of kernels/CMakeLists.txt). One call
// handles a block of queries times the heads of one GQA group: each 16-position K/V chunk is
// widened to fp32 once and reused by every row, scores for 16 positions come out as one vector,
// and an online softmax (flash-attention style) keeps one pass over the cache.
#include "kernels/cpu/attention_kernels.h"
#include "kernels/cpu/kv_quant.h"

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__)
#include <immintrin.h>

#include <cmath>
#include <cstring>

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

// Widens K and V of positions [p0, p0 + count) for one KV head into kbuf/vbuf [16][hd]; the
// rows past count are zeroed so the score reduction never reads garbage.
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
    for (int d = 0; d < hd; d += 16) {
      _mm512_storeu_ps(kd + d, load16(c.k, c.dtype, index + d));
      _mm512_storeu_ps(vd + d, load16(c.v, c.dtype, index + d));
    }
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

struct RowState {
  float* acc;  // [hd]
  float* max;
  float* sum;
};

constexpr int kVecs = kKvChunk / 16;

// Folds one chunk (kVecs score vectors, masked lanes excluded) into a row's online softmax:
// one max, one rescale and one sum per chunk, so the bookkeeping is amortized over 64 positions.
inline void update_row(RowState row, __m512 s[kVecs], const __mmask16 valid[kVecs],
                       const float* vbuf, int hd) {
  __m512 mx = _mm512_set1_ps(-INFINITY);
  for (int v = 0; v < kVecs; ++v) {
    s[v] = _mm512_mask_blend_ps(valid[v], _mm512_set1_ps(-INFINITY), s[v]);
    mx = _mm512_max_ps(mx, s[v]);
  }
  const float chunk_max = _mm512_reduce_max_ps(mx);
  const float new_max = chunk_max > *row.max ? chunk_max : *row.max;
  const __m512 nm = _mm512_set1_ps(new_max);
  // exp(old - new): 0 on the first chunk (old = -inf clamps far below any score).
  const __m512 corr = exp_nonpositive(_mm512_sub_ps(_mm512_set1_ps(*row.max), nm));
  alignas(64) float pw[kKvChunk];
  __m512 total = _mm512_setzero_ps();
  for (int v = 0; v < kVecs; ++v) {
    const __m512 p = _mm512_maskz_mov_ps(valid[v], exp_nonpositive(_mm512_sub_ps(s[v], nm)));
    total = _mm512_add_ps(total, p);
    _mm512_store_ps(pw + 16 * v, p);
  }
  *row.sum = *row.sum * _mm512_cvtss_f32(corr) + _mm512_reduce_add_ps(total);
  *row.max = new_max;
  int last = kKvChunk;  // trailing masked positions add nothing
  while (last > 0 && !((valid[(last - 1) / 16] >> ((last - 1) % 16)) & 1)) --last;
  for (int d = 0; d < hd; d += 64) {  // up to four accumulator vectors stay in registers
    const int nv = (hd - d) / 16 < 4 ? (hd - d) / 16 : 4;
    __m512 acc[4];
    for (int i = 0; i < nv; ++i)
      acc[i] = _mm512_mul_ps(_mm512_loadu_ps(row.acc + d + 16 * i), corr);
    for (int t = 0; t < last; ++t) {
      const __m512 pt = _mm512_set1_ps(pw[t]);
      for (int i = 0; i < nv; ++i) {
        acc[i] = _mm512_fmadd_ps(pt, _mm512_loadu_ps(vbuf + t * hd + d + 16 * i), acc[i]);
      }
    }
    for (int i = 0; i < nv; ++i) _mm512_storeu_ps(row.acc + d + 16 * i, acc[i]);
  }
}

}  // namespace

void attend_avx512(const AttentionWork& w) {
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
    for (int d = 0; d < hd; d += 16) {
      _mm512_storeu_ps(qbuf + r * hd + d,
                       _mm512_mul_ps(_mm512_loadu_ps(src + d), _mm512_set1_ps(w.scale)));
      _mm512_storeu_ps(accs + r * hd + d, _mm512_setzero_ps());
    }
    maxes[r] = -INFINITY;
    sums[r] = 0.0f;
  }
  const int64_t last = w.first_pos + w.num_queries - 1;
  const __m512i lane = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  for (int64_t p0 = 0; p0 <= last; p0 += kKvChunk) {
    const int count = int(last - p0 + 1 < kKvChunk ? last - p0 + 1 : kKvChunk);
    load_chunk(w, p0, count, kbuf, vbuf);
    // Rows go up in position: those before p0 - first_pos have seen their last position.
    const int64_t skip = p0 > w.first_pos ? (p0 - w.first_pos) * w.group : 0;
    for (int r = int(skip); r < rows; ++r) {
      const int64_t pos = w.first_pos + r / w.group;
      const int64_t limit = pos - p0 + 1 < count ? pos - p0 + 1 : count;  // causal and in-chunk
      __m512 s[kVecs];
      __mmask16 valid[kVecs];
      for (int v = 0; v < kVecs; ++v) {
        valid[v] = _mm512_cmplt_epi32_mask(lane, _mm512_set1_epi32(int(limit - 16 * v)));
        s[v] = valid[v] ? scores16(qbuf + r * hd, kbuf + 16 * v * hd, hd) : _mm512_setzero_ps();
      }
      update_row({accs + r * hd, maxes + r, sums + r}, s, valid, vbuf, hd);
    }
  }
  for (int r = 0; r < rows; ++r) {
    float* dst = w.out + (r / w.group) * stride + int64_t(w.kv_head * w.group + r % w.group) * hd;
    const __m512 inv = _mm512_set1_ps(1.0f / sums[r]);
    for (int d = 0; d < hd; d += 16) {
      _mm512_storeu_ps(dst + d, _mm512_mul_ps(_mm512_loadu_ps(accs + r * hd + d), inv));
    }
  }
}

}  // namespace infergate::detail

#else  // built without AVX-512 flags (non-x86 targets): never selected, but must link

namespace infergate::detail {
void attend_avx512(const AttentionWork& work) { attend_portable(work); }
}  // namespace infergate::detail

#endif

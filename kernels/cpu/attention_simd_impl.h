// Internal: the paged-attention kernel that the SIMD files (attention_<isa>.cc) share. One call
// handles a block of queries times the heads of one GQA group: each 64-position K/V chunk is
// widened to fp32 once and reused by every row, scores come out a vector of positions at a time,
// and an online softmax (flash-attention style) keeps one pass over the cache. The walk is
// written once; each ISA file supplies `Isa`, its vector primitives, and instantiates attend<Isa>:
//   Vec, Mask, kLanes, kScoreVecs (vectors per scores() call), kAccVecs (P.V accumulators per
//   block of head_dim); zero, set1, load, store, add, sub, mul, max, fma(a, b, c) = a * b + c,
//   exp (of x <= 0), hmax, hsum, first (lane 0), lanes_between(lo, hi) (the mask of lanes
//   lo <= i < hi),
//   select(m, a, b) (a where m, else b), keep(m, a) (a where m, else 0), scores(q, kbuf, hd, out)
//   (a query row against the next kLanes * kScoreVecs rows of kbuf) and load_row(cache, row, kd,
//   vd) (one row of K and V as fp32).
// Everything here has internal linkage: each ISA's build stays its own.
#pragma once

#include <cmath>
#include <cstring>

#include "kernels/cpu/attention_kernels.h"

namespace infergate::detail {
namespace {

// Widens K and V of positions [p0, p0 + count) for one KV head into kbuf/vbuf [64][hd]; the rows
// past count are zeroed so the score reduction never reads garbage.
template <class Isa>
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
    Isa::load_row(c, slot * c.num_kv_heads + w.kv_head, kd, vd);
  }
}

// acc[0, NV lanes) = corr * acc + sum over t < limit of p[t] * v[t][0, NV lanes), v rows hd
// apart. NV is a constant so that the accumulators live in registers.
template <class Isa, int NV>
inline void accumulate_pv(float* acc, typename Isa::Vec corr, const float* p, int limit,
                          const float* v, int hd) {
  typename Isa::Vec a[NV];
#pragma GCC unroll 8
  for (int i = 0; i < NV; ++i) a[i] = Isa::mul(Isa::load(acc + Isa::kLanes * i), corr);
  for (int t = 0; t < limit; ++t) {  // positions past limit add nothing
    const typename Isa::Vec pt = Isa::set1(p[t]);
#pragma GCC unroll 8
    for (int i = 0; i < NV; ++i) {
      a[i] = Isa::fma(pt, Isa::load(v + t * hd + Isa::kLanes * i), a[i]);
    }
  }
#pragma GCC unroll 8
  for (int i = 0; i < NV; ++i) Isa::store(acc + Isa::kLanes * i, a[i]);
}

// head_dim from d on in blocks of NV vectors, then NV / 2, ..., 1 for what is left.
template <class Isa, int NV>
inline void accumulate_row(float* acc, typename Isa::Vec corr, const float* p, int limit,
                           const float* v, int hd, int d = 0) {
  for (; d + NV * Isa::kLanes <= hd; d += NV * Isa::kLanes) {
    accumulate_pv<Isa, NV>(acc + d, corr, p, limit, v + d, hd);
  }
  if constexpr (NV > 1) accumulate_row<Isa, NV / 2>(acc, corr, p, limit, v, hd, d);
}

struct RowState {
  float* acc;  // [hd]
  float* max;
  float* sum;
};

// Folds one chunk (score vectors s, lanes past `limit` excluded) into a row's online softmax:
// one max, one rescale and one sum per chunk, so the bookkeeping is amortized over 64 positions.
template <class Isa>
inline void update_row(RowState row, typename Isa::Vec* s, const typename Isa::Mask* valid,
                       int limit, const float* vbuf, int hd) {
  using Vec = typename Isa::Vec;
  constexpr int kVecs = kKvChunk / Isa::kLanes;
  const Vec neg_inf = Isa::set1(-INFINITY);
  Vec mx = neg_inf;
  for (int v = 0; v < kVecs; ++v) {
    s[v] = Isa::select(valid[v], s[v], neg_inf);
    mx = Isa::max(mx, s[v]);
  }
  const float chunk_max = Isa::hmax(mx);
  const float new_max = chunk_max > *row.max ? chunk_max : *row.max;
  const Vec nm = Isa::set1(new_max);
  // exp(old - new): 0 on the first chunk (old = -inf clamps far below any score).
  const Vec corr = Isa::exp(Isa::sub(Isa::set1(*row.max), nm));
  alignas(64) float pw[kKvChunk];
  Vec total = Isa::zero();
  for (int v = 0; v < kVecs; ++v) {
    const Vec p = Isa::keep(valid[v], Isa::exp(Isa::sub(s[v], nm)));
    total = Isa::add(total, p);
    Isa::store(pw + Isa::kLanes * v, p);
  }
  *row.sum = *row.sum * Isa::first(corr) + Isa::hsum(total);
  *row.max = new_max;
  accumulate_row<Isa, Isa::kAccVecs>(row.acc, corr, pw, limit, vbuf, hd);
}

// Scores of one (pre-scaled) query row against the positions of the chunk before `limit`, and
// the mask of those from `start` on (a sliding window's first); the vectors past limit are not
// computed.
template <class Isa>
inline void score_chunk(const float* q, const float* kbuf, int hd, int start, int limit,
                        typename Isa::Vec* s, typename Isa::Mask* valid) {
  constexpr int kVecs = kKvChunk / Isa::kLanes;
  for (int v = 0; v < kVecs; v += Isa::kScoreVecs) {
    if (Isa::kLanes * v < limit) {
      Isa::scores(q, kbuf + Isa::kLanes * v * hd, hd, s + v);
    } else {
      for (int i = 0; i < Isa::kScoreVecs; ++i) s[v + i] = Isa::zero();
    }
  }
  for (int v = 0; v < kVecs; ++v) {
    valid[v] = Isa::lanes_between(start - Isa::kLanes * v, limit - Isa::kLanes * v);
  }
}

// The caller's scratch (attention_scratch_floats) carved up: per row (query r / group, head
// r % group) its pre-scaled query, accumulator, running max and sum; one K and one V chunk.
struct Rows {
  Rows(const AttentionWork& w, int hd) : count(w.num_queries * w.group) {
    q = w.scratch;
    acc = q + int64_t(count) * hd;
    max = acc + int64_t(count) * hd;
    sum = max + count;
    kbuf = sum + count;
    vbuf = kbuf + kKvChunk * hd;
  }
  int count;
  float *q, *acc, *max, *sum, *kbuf, *vbuf;
};

// Where row r's query and output sit in w.q and w.out.
inline int64_t row_offset(const AttentionWork& w, int r, int hd) {
  return (r / w.group) * int64_t(w.num_heads) * hd +
         int64_t(w.kv_head * w.group + r % w.group) * hd;
}

template <class Isa>
void start_rows(const AttentionWork& w, const Rows& rows, int hd) {
  for (int r = 0; r < rows.count; ++r) {
    const float* src = w.q + row_offset(w, r, hd);
    for (int d = 0; d < hd; d += Isa::kLanes) {
      Isa::store(rows.q + r * hd + d, Isa::mul(Isa::load(src + d), Isa::set1(w.scale)));
      Isa::store(rows.acc + r * hd + d, Isa::zero());
    }
    rows.max[r] = -INFINITY;
    rows.sum[r] = 0.0f;
  }
}

template <class Isa>
void finish_rows(const AttentionWork& w, const Rows& rows, int hd) {
  for (int r = 0; r < rows.count; ++r) {
    float* dst = w.out + row_offset(w, r, hd);
    const typename Isa::Vec inv = Isa::set1(1.0f / rows.sum[r]);
    for (int d = 0; d < hd; d += Isa::kLanes) {
      Isa::store(dst + d, Isa::mul(Isa::load(rows.acc + r * hd + d), inv));
    }
  }
}

template <class Isa>
void attend(const AttentionWork& w) {
  const int hd = w.cache->head_dim;
  const Rows rows(w, hd);
  start_rows<Isa>(w, rows, hd);
  const int64_t last = w.first_pos + w.num_queries - 1;
  // The first position any row sees: 0, or the first query's window start. Positions before it
  // are never read (a sliding window's blocks there may be freed).
  for (int64_t p0 = window_start(w, w.first_pos); p0 <= last; p0 += kKvChunk) {
    const int count = int(last - p0 + 1 < kKvChunk ? last - p0 + 1 : kKvChunk);
    load_chunk<Isa>(w, p0, count, rows.kbuf, rows.vbuf);
    // Rows go up in position: those before p0 - first_pos have seen their last position.
    const int64_t skip = p0 > w.first_pos ? (p0 - w.first_pos) * w.group : 0;
    for (int r = int(skip); r < rows.count; ++r) {
      const int64_t pos = w.first_pos + r / w.group;
      const int64_t from = window_start(w, pos);
      if (from >= p0 + count) break;  // this row's window, and later rows', starts past the chunk
      const int start = from > p0 ? int(from - p0) : 0;
      const int limit = int(pos - p0 + 1 < count ? pos - p0 + 1 : count);  // causal, in-chunk
      typename Isa::Vec s[kKvChunk / Isa::kLanes];
      typename Isa::Mask valid[kKvChunk / Isa::kLanes];
      score_chunk<Isa>(rows.q + r * hd, rows.kbuf, hd, start, limit, s, valid);
      update_row<Isa>({rows.acc + r * hd, rows.max + r, rows.sum + r}, s, valid, limit, rows.vbuf,
                      hd);
    }
  }
  finish_rows<Isa>(w, rows, hd);
}

}  // namespace
}  // namespace infergate::detail

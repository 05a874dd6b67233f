#include "kernels/cpu/paged_attention.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "kernels/cpu/convert.h"

namespace infergate {

namespace {

size_t element_bytes(DType dtype) { return dtype == DType::kF32 ? 4 : 2; }

// Pointer to the head_dim vector of (slot, kv_head) in a cache tensor.
const uint8_t* slot_ptr(const void* base, const KvLayerView& c, int64_t slot, int kv_head) {
  const int64_t index = (slot * c.num_kv_heads + kv_head) * c.head_dim;
  return static_cast<const uint8_t*>(base) + size_t(index) * element_bytes(c.dtype);
}

void load_row(const uint8_t* p, DType dtype, int n, float* out) {
  if (dtype == DType::kF32) {
    std::memcpy(out, p, size_t(n) * 4);
  } else {
    const uint16_t* h = reinterpret_cast<const uint16_t*>(p);
    if (dtype == DType::kBF16) {
      for (int i = 0; i < n; ++i) out[i] = bf16_to_f32(h[i]);
    } else {
      for (int i = 0; i < n; ++i) out[i] = f16_to_f32(h[i]);
    }
  }
}

int64_t slot_of(const AttentionSequence& s, int block_size, int64_t pos) {
  return int64_t(s.block_table[pos / block_size]) * block_size + pos % block_size;
}

}  // namespace

void write_kv(const float* k, const float* v, const int64_t* slot_mapping, int64_t num_tokens,
              const KvLayerView& c) {
  const int64_t width = int64_t(c.num_kv_heads) * c.head_dim;
  const size_t bytes = size_t(width) * element_bytes(c.dtype);
  for (int64_t t = 0; t < num_tokens; ++t) {
    const int64_t slot = slot_mapping[t];
    if (slot < 0) continue;
    uint8_t* kd = static_cast<uint8_t*>(c.k) + size_t(slot) * bytes;
    uint8_t* vd = static_cast<uint8_t*>(c.v) + size_t(slot) * bytes;
    from_f32(k + t * width, width, c.dtype, kd);
    from_f32(v + t * width, width, c.dtype, vd);
  }
}

void paged_attention(const float* q, const AttentionSequence* seqs, int64_t num_seqs,
                     const KvLayerView& c, int num_heads, float scale, float* out,
                     ThreadPool& pool) {
  const int hd = c.head_dim;
  const int group = num_heads / c.num_kv_heads;
  // Work items are (query row, head); each row remembers its sequence and its index in it.
  struct Row {
    int64_t seq;
    int64_t local;
  };
  std::vector<Row> rows;
  for (int64_t s = 0; s < num_seqs; ++s) {
    for (int64_t j = 0; j < seqs[s].query_len; ++j) rows.push_back({s, j});
  }
  const int64_t items = int64_t(rows.size()) * num_heads;
  pool.parallel_for(items, [&](int64_t begin, int64_t end) {
    std::vector<float> scores, kv(static_cast<size_t>(hd)), acc(static_cast<size_t>(hd));
    for (int64_t item = begin; item < end; ++item) {
      const Row& row = rows[size_t(item / num_heads)];
      const int h = int(item % num_heads);
      const AttentionSequence& s = seqs[row.seq];
      const int64_t pos = s.context_len - s.query_len + row.local;
      const int64_t token = s.query_start + row.local;
      const float* qv = q + (token * num_heads + h) * hd;
      const int kvh = h / group;
      scores.resize(size_t(pos + 1));
      float mx = -INFINITY;
      for (int64_t p = 0; p <= pos; ++p) {
        load_row(slot_ptr(c.k, c, slot_of(s, c.block_size, p), kvh), c.dtype, hd, kv.data());
        float dot = 0;
        for (int i = 0; i < hd; ++i) dot += qv[i] * kv[size_t(i)];
        scores[size_t(p)] = dot * scale;
        mx = std::max(mx, scores[size_t(p)]);
      }
      float sum = 0;
      for (auto& x : scores) sum += (x = std::exp(x - mx));
      std::fill(acc.begin(), acc.end(), 0.0f);
      for (int64_t p = 0; p <= pos; ++p) {
        load_row(slot_ptr(c.v, c, slot_of(s, c.block_size, p), kvh), c.dtype, hd, kv.data());
        const float w = scores[size_t(p)] / sum;
        for (int i = 0; i < hd; ++i) acc[size_t(i)] += w * kv[size_t(i)];
      }
      std::copy(acc.begin(), acc.end(), out + (token * num_heads + h) * hd);
    }
  });
}

}  // namespace infergate

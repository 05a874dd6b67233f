#include "kernels/cpu/paged_attention.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "kernels/cpu/attention_kernels.h"
#include "kernels/cpu/convert.h"
#include "kernels/cpu/kv_quant.h"

namespace infergate {

namespace {

using detail::AttentionWork;

size_t element_bytes(DType dtype) { return dtype_bytes(dtype, 1); }

// Row `row` (slot * num_kv_heads + head) of one side of the cache, as fp32.
void load_row(const KvLayerView& c, const void* side, const float* scales, int64_t row,
              float* out) {
  const int n = c.head_dim;
  const uint8_t* p =
      static_cast<const uint8_t*>(side) + size_t(row) * size_t(n) * element_bytes(c.dtype);
  const DType dtype = c.dtype;
  if (is_scaled_kv(dtype)) {
    dequantize_kv_row(p, scales[row], n, dtype, out);
  } else if (dtype == DType::kF32) {
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

detail::AttendFn choose_kernel(const KvLayerView& c, int group) {
  const bool fits = c.head_dim <= 256 && group <= 16;
  if (fits && c.head_dim % 16 == 0 && active_isa() >= IsaLevel::kAvx512) {
    return &detail::attend_avx512;
  }
  if (fits && c.head_dim % 8 == 0 && active_isa() >= IsaLevel::kAvx2) return &detail::attend_avx2;
#if defined(__aarch64__)
  if (fits && c.head_dim % 4 == 0 && active_isa() == IsaLevel::kNeon) return &detail::attend_neon;
#endif
  return &detail::attend_portable;
}

// One work item per (sequence, query block, KV head), costliest first so that dynamic
// scheduling ends with small items (the causal triangle makes late query blocks dearer).
std::vector<AttentionWork> plan(const float* q, const AttentionSequence* seqs, int64_t num_seqs,
                                const KvLayerView& c, int num_heads, float scale,
                                int64_t sliding_window, float* out) {
  const int group = num_heads / c.num_kv_heads;
  const int64_t stride = int64_t(num_heads) * c.head_dim;
  std::vector<AttentionWork> work;
  for (int64_t s = 0; s < num_seqs; ++s) {
    const AttentionSequence& seq = seqs[s];
    for (int64_t j0 = 0; j0 < seq.query_len; j0 += detail::kQueryBlock) {
      for (int h = 0; h < c.num_kv_heads; ++h) {
        AttentionWork w;
        w.q = q + (seq.query_start + j0) * stride;
        w.out = out + (seq.query_start + j0) * stride;
        w.first_pos = seq.context_len - seq.query_len + j0;
        w.num_queries = int(std::min<int64_t>(detail::kQueryBlock, seq.query_len - j0));
        w.kv_head = h;
        w.group = group;
        w.num_heads = num_heads;
        w.scale = scale;
        w.window = sliding_window;
        w.block_table = seq.block_table;
        w.cache = &c;
        work.push_back(w);
      }
    }
  }
  std::stable_sort(work.begin(), work.end(), [](const AttentionWork& a, const AttentionWork& b) {
    return a.first_pos + a.num_queries > b.first_pos + b.num_queries;
  });
  return work;
}

struct FreeDeleter {
  void operator()(float* p) const { std::free(p); }
};

}  // namespace

namespace detail {

// The portable kernel: per row, per position, an online softmax in fp32.
void attend_portable(const AttentionWork& w) {
  const KvLayerView& c = *w.cache;
  const int hd = c.head_dim;
  const int64_t stride = int64_t(w.num_heads) * hd;
  float* kv = w.scratch;
  float* acc = kv + hd;
  for (int r = 0; r < w.num_queries * w.group; ++r) {
    const int64_t off = (r / w.group) * stride + int64_t(w.kv_head * w.group + r % w.group) * hd;
    const float* qv = w.q + off;
    const int64_t pos = w.first_pos + r / w.group;
    float mx = -INFINITY, sum = 0;
    std::fill(acc, acc + hd, 0.0f);
    for (int64_t p = detail::window_start(w, pos); p <= pos; ++p) {
      const int64_t slot =
          int64_t(w.block_table[p / c.block_size]) * c.block_size + p % c.block_size;
      const int64_t row = slot * c.num_kv_heads + w.kv_head;
      load_row(c, c.k, c.k_scale, row, kv);
      float dot = 0;
      for (int i = 0; i < hd; ++i) dot += qv[i] * kv[i];
      const float s = dot * w.scale;
      const float new_max = std::max(mx, s);
      const float corr = std::exp(mx - new_max), e = std::exp(s - new_max);
      sum = sum * corr + e;
      mx = new_max;
      load_row(c, c.v, c.v_scale, row, kv);
      for (int i = 0; i < hd; ++i) acc[i] = acc[i] * corr + e * kv[i];
    }
    for (int i = 0; i < hd; ++i) w.out[off + i] = acc[i] / sum;
  }
}

}  // namespace detail

void write_kv(const float* k, const float* v, const int64_t* slot_mapping, int64_t num_tokens,
              const KvLayerView& c) {
  const int64_t width = int64_t(c.num_kv_heads) * c.head_dim;
  const size_t bytes = size_t(width) * element_bytes(c.dtype);
  for (int64_t t = 0; t < num_tokens; ++t) {
    const int64_t slot = slot_mapping[t];
    if (slot < 0) continue;
    uint8_t* kd = static_cast<uint8_t*>(c.k) + size_t(slot) * bytes;
    uint8_t* vd = static_cast<uint8_t*>(c.v) + size_t(slot) * bytes;
    if (!is_scaled_kv(c.dtype)) {
      from_f32(k + t * width, width, c.dtype, kd);
      from_f32(v + t * width, width, c.dtype, vd);
      continue;
    }
    for (int h = 0; h < c.num_kv_heads; ++h) {
      const int64_t row = slot * c.num_kv_heads + h, at = int64_t(h) * c.head_dim;
      c.k_scale[row] = quantize_kv_row(k + t * width + at, c.head_dim, c.dtype, kd + at);
      c.v_scale[row] = quantize_kv_row(v + t * width + at, c.head_dim, c.dtype, vd + at);
    }
  }
}

void paged_attention(const float* q, const AttentionSequence* seqs, int64_t num_seqs,
                     const KvLayerView& c, int num_heads, float scale, float* out, ThreadPool& pool,
                     int64_t sliding_window) {
  std::vector<AttentionWork> work =
      plan(q, seqs, num_seqs, c, num_heads, scale, sliding_window, out);
  if (work.empty()) return;
  const detail::AttendFn attend = choose_kernel(c, num_heads / c.num_kv_heads);
  const size_t scratch_bytes =
      (size_t(detail::attention_scratch_floats(c.head_dim)) * sizeof(float) + 63) / 64 * 64;
  std::atomic<size_t> next{0};
  const int64_t workers = std::min<int64_t>(pool.size(), int64_t(work.size()));
  pool.parallel_for(workers, [&](int64_t, int64_t) {
    thread_local std::unique_ptr<float, FreeDeleter> scratch;
    thread_local size_t scratch_size = 0;
    if (scratch_size < scratch_bytes) {
      scratch.reset(static_cast<float*>(std::aligned_alloc(64, scratch_bytes)));
      scratch_size = scratch_bytes;
    }
    for (size_t i = next.fetch_add(1); i < work.size(); i = next.fetch_add(1)) {
      work[i].scratch = scratch.get();
      attend(work[i]);
    }
  });
}

}  // namespace infergate

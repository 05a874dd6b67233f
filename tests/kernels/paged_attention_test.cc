#include "kernels/cpu/paged_attention.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/convert.h"
#include "kernels/cpu/kv_quant.h"
#include "test_util.h"

namespace infergate {
namespace {

using testing::IsaLevels;
using testing::random_values;

struct Case {
  DType dtype;
  int head_dim, num_heads, num_kv_heads, block_size;
  std::vector<std::pair<int, int>> seqs;  // (query_len, context_len)
};

// A cache filled through write_kv from random K/V, with shuffled block tables.
struct Fixture {
  KvLayerView view;
  std::vector<uint8_t> k, v;
  std::vector<float> k_scale, v_scale;  // scaled formats
  std::vector<std::vector<int32_t>> tables;
  std::vector<AttentionSequence> seqs;
  std::vector<float> q;
  int64_t num_tokens = 0;

  int32_t poison_block = 0;  // the last: all bytes 0xff (NaN in f32, f16 and bf16)

  explicit Fixture(const Case& c, uint32_t seed) {
    int64_t blocks = 1;
    for (auto [ql, ctx] : c.seqs) blocks += (ctx + c.block_size - 1) / c.block_size;
    const int64_t width = int64_t(c.num_kv_heads) * c.head_dim;
    const size_t es = dtype_bytes(c.dtype, 1);
    k.resize(size_t(blocks * c.block_size * width) * es);
    v.resize(k.size());
    view = {k.data(), v.data(), c.dtype, blocks, c.block_size, c.num_kv_heads, c.head_dim};
    if (is_scaled_kv(c.dtype)) {
      k_scale.assign(size_t(blocks * c.block_size * c.num_kv_heads), -1.0f);
      v_scale.assign(k_scale.size(), -1.0f);
      view.k_scale = k_scale.data();
      view.v_scale = v_scale.data();
    }
    poison_block = int32_t(blocks - 1);
    const size_t block_bytes = size_t(c.block_size * width) * es;
    std::fill(k.begin() + ptrdiff_t(size_t(poison_block) * block_bytes), k.end(), 0xff);
    std::fill(v.begin() + ptrdiff_t(size_t(poison_block) * block_bytes), v.end(), 0xff);
    std::vector<int32_t> ids(static_cast<size_t>(blocks - 1));
    std::iota(ids.begin(), ids.end(), 0);
    std::shuffle(ids.begin(), ids.end(), std::mt19937(seed));
    size_t next = 0;
    for (auto [ql, ctx] : c.seqs) {
      std::vector<int32_t> table;
      for (int b = 0; b < (ctx + c.block_size - 1) / c.block_size; ++b)
        table.push_back(ids[next++]);
      std::vector<int64_t> slots;
      for (int p = 0; p < ctx; ++p) {
        slots.push_back(int64_t(table[size_t(p / c.block_size)]) * c.block_size + p % c.block_size);
      }
      const std::vector<float> kv = random_values(2 * ctx * width, seed++);
      write_kv(kv.data(), kv.data() + ctx * width, slots.data(), ctx, view);
      tables.push_back(std::move(table));
      num_tokens += ql;
    }
    int64_t start = 0;
    for (size_t s = 0; s < c.seqs.size(); ++s) {
      seqs.push_back({start, c.seqs[s].first, c.seqs[s].second, tables[s].data()});
      start += c.seqs[s].first;
    }
    q = random_values(num_tokens * c.num_heads * c.head_dim, seed + 1000);
  }
};

// Row `row` (slot * num_kv_heads + head) of the cache's K or V, as fp32.
void read_row(const Fixture& f, const Case& c, bool value, int64_t row, float* out) {
  const std::vector<uint8_t>& side = value ? f.v : f.k;
  if (is_scaled_kv(c.dtype)) {
    const float s = (value ? f.v_scale : f.k_scale)[size_t(row)];
    dequantize_kv_row(side.data() + row * c.head_dim, s, c.head_dim, c.dtype, out);
    return;
  }
  const Tensor t = Tensor::borrow(c.dtype, {int64_t(side.size() / dtype_bytes(c.dtype, 1))},
                                  side.data(), nullptr);
  to_f32(t, row * c.head_dim, c.head_dim, out);
}

// Double-precision attention over values read back from the cache; window > 0: each query sees
// its last `window` positions.
std::vector<float> reference(const Fixture& f, const Case& c, float scale, int64_t window = 0) {
  const int hd = c.head_dim, group = c.num_heads / c.num_kv_heads;
  std::vector<float> out(f.q.size());
  std::vector<float> kr(static_cast<size_t>(hd)), vr(static_cast<size_t>(hd));
  for (const AttentionSequence& s : f.seqs) {
    for (int64_t j = 0; j < s.query_len; ++j) {
      const int64_t pos = s.context_len - s.query_len + j, token = s.query_start + j;
      for (int h = 0; h < c.num_heads; ++h) {
        const float* qv = f.q.data() + (token * c.num_heads + h) * hd;
        std::vector<double> sc(static_cast<size_t>(pos + 1), -INFINITY);
        std::vector<double> acc(static_cast<size_t>(hd), 0.0);
        const int64_t first = window > 0 ? std::max<int64_t>(0, pos - window + 1) : 0;
        for (int64_t p = first; p <= pos; ++p) {
          const int64_t slot =
              int64_t(s.block_table[p / c.block_size]) * c.block_size + p % c.block_size;
          read_row(f, c, false, slot * c.num_kv_heads + h / group, kr.data());
          double dot = 0;
          for (int i = 0; i < hd; ++i) dot += double(qv[i]) * kr[size_t(i)];
          sc[size_t(p)] = dot * scale;
        }
        const double mx = *std::max_element(sc.begin(), sc.end());
        double sum = 0;
        for (double& e : sc) sum += (e = std::exp(e - mx));
        for (int64_t p = first; p <= pos; ++p) {
          const int64_t slot =
              int64_t(s.block_table[p / c.block_size]) * c.block_size + p % c.block_size;
          read_row(f, c, true, slot * c.num_kv_heads + h / group, vr.data());
          for (int i = 0; i < hd; ++i) acc[size_t(i)] += sc[size_t(p)] / sum * vr[size_t(i)];
        }
        for (int i = 0; i < hd; ++i)
          out[size_t((token * c.num_heads + h) * hd + i)] = float(acc[size_t(i)]);
      }
    }
  }
  return out;
}

TEST_CASE("paged_attention matches a double-precision reference (decode, prefill, chunks)") {
  IsaLevels isa;
  ThreadPool pool(3);
  const std::vector<std::vector<std::pair<int, int>>> batches = {
      {{1, 1}},                               // first decode step
      {{1, 100}, {1, 17}, {1, 16}, {1, 33}},  // decode batch, chunk edges
      {{37, 37}},                             // prefill, several query blocks
      {{20, 50}, {1, 9}, {70, 70}},           // chunked prefill mixed with decode
      {{40, 150}, {1, 200}},                  // several 64-position chunks, unaligned queries
  };
  uint32_t seed = 1;
  for (DType dtype : {DType::kF32, DType::kF16, DType::kBF16, DType::kI8, DType::kF8E4M3}) {
    for (auto [hd, nh, nkv, bs] : std::vector<std::array<int, 4>>{
             {64, 12, 4, 16}, {48, 6, 6, 5}, {40, 4, 2, 16}, {128, 8, 1, 7}, {32, 32, 2, 16}}) {
      for (const auto& batch : batches) {
        const Case c{dtype, hd, nh, nkv, bs, batch};
        const Fixture f(c, seed++);
        const float scale = 1.0f / std::sqrt(float(hd));
        const std::vector<float> want = reference(f, c, scale);
        for (IsaLevel level : isa.levels()) {
          set_isa_level(level);
          std::vector<float> got(want.size(), 777.0f);
          paged_attention(f.q.data(), f.seqs.data(), int64_t(f.seqs.size()), f.view, nh, scale,
                          got.data(), pool);
          for (size_t i = 0; i < got.size(); ++i) {
            INFO(dtype_name(dtype) << " " << isa_name(level) << " hd=" << hd << " heads=" << nh
                                   << "/" << nkv << " bs=" << bs << " at " << i);
            REQUIRE(std::fabs(got[i] - want[i]) <= 2e-5 + 2e-5 * std::fabs(want[i]));
          }
        }
      }
    }
  }
}

TEST_CASE("paged_attention with a sliding window sees each query's last positions only") {
  IsaLevels isa;
  ThreadPool pool(3);
  const std::vector<std::vector<std::pair<int, int>>> batches = {
      {{1, 1}, {1, 100}, {1, 17}, {1, 200}},  // decodes
      {{37, 37}, {70, 70}},                   // prefills, several query blocks
      {{20, 150}, {1, 9}, {40, 200}},         // chunks far past the window
  };
  uint32_t seed = 50;
  for (DType dtype : {DType::kF32, DType::kBF16}) {
    for (auto [hd, nh, nkv, bs] :
         std::vector<std::array<int, 4>>{{64, 12, 4, 16}, {48, 6, 6, 5}, {40, 4, 2, 16}}) {
      for (int64_t window : {1, 5, 16, 63, 64, 65, 130}) {
        for (const auto& batch : batches) {
          const Case c{dtype, hd, nh, nkv, bs, batch};
          Fixture f(c, seed++);
          const float scale = 1.0f / std::sqrt(float(hd));
          const std::vector<float> want = reference(f, c, scale, window);
          // The blocks behind every query's window point at NaN: reading one would show.
          for (size_t s = 0; s < f.seqs.size(); ++s) {
            const int64_t first_pos = f.seqs[s].context_len - f.seqs[s].query_len;
            const int64_t seen = std::max<int64_t>(0, first_pos - window + 1);
            for (int64_t b = 0; b < seen / bs; ++b) f.tables[s][size_t(b)] = f.poison_block;
          }
          for (IsaLevel level : isa.levels()) {
            set_isa_level(level);
            std::vector<float> got(want.size(), 777.0f);
            paged_attention(f.q.data(), f.seqs.data(), int64_t(f.seqs.size()), f.view, nh, scale,
                            got.data(), pool, window);
            for (size_t i = 0; i < got.size(); ++i) {
              INFO(dtype_name(dtype) << " " << isa_name(level) << " hd=" << hd
                                     << " window=" << window << " bs=" << bs << " at " << i);
              REQUIRE(std::fabs(got[i] - want[i]) <= 2e-5 + 2e-5 * std::fabs(want[i]));
            }
          }
        }
      }
    }
  }
}

// What a scaled cache costs: attention over int8 / fp8 K and V against the same attention over
// the fp32 values they quantized, on random unit-range inputs.
TEST_CASE("int8 and fp8 KV attention stays within its quantization error of fp32 KV attention") {
  ThreadPool pool(2);
  const std::vector<std::pair<int, int>> batch = {{1, 300}, {24, 24}, {1, 65}};
  for (auto [dtype, bound] : {std::pair{DType::kI8, 0.01}, std::pair{DType::kF8E4M3, 0.07}}) {
    double worst = 0;
    for (uint32_t seed : {11u, 12u}) {
      const Case exact{DType::kF32, 64, 8, 2, 16, batch}, scaled{dtype, 64, 8, 2, 16, batch};
      const Fixture fe(exact, seed), fs(scaled, seed);  // same seed: same K, V and q
      const float scale = 0.125f;
      std::vector<float> want(fe.q.size()), got(fs.q.size());
      paged_attention(fe.q.data(), fe.seqs.data(), int64_t(fe.seqs.size()), fe.view, 8, scale,
                      want.data(), pool);
      paged_attention(fs.q.data(), fs.seqs.data(), int64_t(fs.seqs.size()), fs.view, 8, scale,
                      got.data(), pool);
      for (size_t i = 0; i < got.size(); ++i) {
        worst = std::max(worst, double(std::fabs(got[i] - want[i])));
      }
    }
    INFO(dtype_name(dtype) << ": largest |difference| " << worst);
    CHECK(worst > 0);  // the cache really is quantized
    CHECK(worst < bound);
  }
}

TEST_CASE("write_kv skips negative slots and stores the rest in the cache dtype") {
  std::vector<uint16_t> k(4 * 2 * 8, 0), v(k.size(), 0);
  const KvLayerView view{k.data(), v.data(), DType::kBF16, 1, 4, 2, 8};
  const std::vector<float> kv = random_values(2 * 2 * 16, 5);
  const int64_t slots[2] = {2, -1};
  write_kv(kv.data(), kv.data() + 32, slots, 2, view);
  for (int i = 0; i < 16; ++i) {
    CHECK(k[size_t(2 * 16 + i)] == f32_to_bf16(kv[size_t(i)]));
    CHECK(v[size_t(2 * 16 + i)] == f32_to_bf16(kv[size_t(32 + i)]));
  }
  for (int s : {0, 1, 3}) {
    for (int i = 0; i < 16; ++i) CHECK(k[size_t(s * 16 + i)] == 0);
  }
}

}  // namespace
}  // namespace infergate

// Padding a decode step for a CUDA graph must not change a real row: checked on the CPU forward,
// the same arithmetic the GPU forward is tested against.
#include "engine/core/batch_padding.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "engine/forward/cpu/cpu_transformer.h"
#include "engine/kv/kv_cache_storage.h"
#include "engine/model/synthetic_model.h"
#include "test_models.h"

using namespace infergate;

namespace {

constexpr int kBlockSize = 4;

// Decodes of three sequences whose caches hold 5, 9 and 2 positions (written by a prefill).
struct ThreeDecodes {
  std::vector<std::vector<int32_t>> tables = {{3, 1}, {4, 6, 2}, {5}};
  std::vector<int64_t> lengths = {5, 9, 2};

  BatchInput batch(bool prefill) const {
    BatchInput b;
    for (size_t s = 0; s < tables.size(); ++s) {
      const int64_t first = prefill ? 0 : lengths[s] - 1;
      AttentionSequence a{b.num_tokens(), lengths[s] - first, lengths[s], tables[s].data()};
      for (int64_t p = first; p < lengths[s]; ++p) {
        b.token_ids.push_back(int32_t(7 + 13 * s + p));
        b.positions.push_back(int32_t(p));
        b.slot_mapping.push_back(int64_t(tables[s][size_t(p / kBlockSize)]) * kBlockSize +
                                 p % kBlockSize);
      }
      b.sequences.push_back(a);
      b.logits_rows.push_back(b.num_tokens() - 1);
    }
    return b;
  }
};

}  // namespace

TEST_CASE("a padded decode step gives the real rows the unpadded logits", "[engine]") {
  const ModelWeights w = make_synthetic_model(testing::small_test_config(), 5);
  ThreadPool pool(2);
  CpuTransformer model(w, pool);
  const ThreeDecodes d;
  auto run = [&](int64_t pad_to) {
    KvCacheStorage cache(w.config, 8, kBlockSize, DType::kF32);
    model.forward(d.batch(/*prefill=*/true), cache);
    const BatchInput step = d.batch(/*prefill=*/false);
    return model.forward(pad_to ? pad_decode_batch(step, pad_to) : step, cache);
  };
  const std::vector<float> plain = run(0);
  const std::vector<float> padded = run(8);
  const size_t vocab = size_t(w.config.vocab_size);
  REQUIRE(padded.size() == 8 * vocab);
  // The GEMMs may take another kernel path for 8 rows than for 3: equal up to fp32 ordering.
  double diff = 0, scale = 0;
  for (size_t i = 0; i < plain.size(); ++i) {
    diff = std::max(diff, std::fabs(double(padded[i]) - double(plain[i])));
    scale = std::max(scale, std::fabs(double(plain[i])));
  }
  CHECK(diff <= 1e-5 * scale);
}

TEST_CASE("decode padding appends one-token sequences that write no KV", "[engine]") {
  const BatchInput step = ThreeDecodes().batch(false);
  const BatchInput p = pad_decode_batch(step, 5);
  REQUIRE(p.sequences.size() == 5);
  CHECK(p.num_tokens() == 5);
  CHECK(p.slot_mapping[3] == -1);
  CHECK(p.slot_mapping[4] == -1);
  CHECK(p.sequences[4].query_start == 4);
  CHECK(p.sequences[4].context_len == 1);
  CHECK(p.logits_rows == std::vector<int64_t>{0, 1, 2, 3, 4});
  CHECK(is_decode_only(p));
  CHECK_FALSE(is_decode_only(ThreeDecodes().batch(true)));
  CHECK_THROWS_WITH(pad_decode_batch(step, 2), Catch::Contains("at most 2 sequences"));
  CHECK_THROWS_WITH(pad_decode_batch(ThreeDecodes().batch(true), 8),
                    Catch::Contains("decode-only"));
}

// llama.cpp's preset mixtures on a model whose rows all take 256-value blocks, checked by hand
// against llama-quant.cpp's rules. (tests/interop/llama_cpp_presets.sh checks whole files
// against llama.cpp's own quantizer.)
#include <catch2/catch.hpp>
#include <set>

#include "engine/model/llama_cpp_preset.h"
#include "engine/model/synthetic_model.h"
#include "model_formats_util.h"

using namespace infergate;

namespace {

// 8 layers, rows of 256 and 512 values, 4 query heads per KV head.
ModelWeights eight_layers() {
  ModelConfig c = testing::micro_config();
  c.hidden_size = 256;
  c.intermediate_size = 512;
  c.num_layers = 8;
  c.num_heads = 4;
  c.num_kv_heads = 1;
  c.head_dim = 64;
  c.vocab_size = 300;
  return make_synthetic_model(c, 3);
}

}  // namespace

TEST_CASE("Q4_K_M gives Q6_K to attn_v and ffn_down of llama.cpp's use_more_bits layers",
          "[model][quantize]") {
  ModelWeights w = eight_layers();
  apply_llama_cpp_preset(w, "Q4_K_M");
  // use_more_bits(i, 8): i < 1, i >= 7, or (i - 1) % 3 == 2.
  const std::set<int> more = {0, 3, 6, 7};
  for (int i = 0; i < 8; ++i) {
    CAPTURE(i);
    const DType want = more.count(i) ? DType::kQ6_K : DType::kQ4_K;
    CHECK(w.layers[size_t(i)].wv.dtype() == want);
    CHECK(w.layers[size_t(i)].ffn.down.dtype() == want);
    CHECK(w.layers[size_t(i)].wq.dtype() == DType::kQ4_K);
    CHECK(w.layers[size_t(i)].ffn.gate.dtype() == DType::kQ4_K);
    CHECK(w.layers[size_t(i)].attn_norm.dtype() == DType::kF32);
  }
  CHECK(w.lm_head.dtype() == DType::kQ6_K);
  CHECK(w.embed.dtype() == DType::kQ4_K);
}

TEST_CASE("other presets' rules: Q2_K, Q3_K_M, Q4_K_S, IQ4_XS, Q8_0", "[model][quantize]") {
  ModelWeights w = eight_layers();
  apply_llama_cpp_preset(w, "Q2_K");
  CHECK(w.layers[0].wv.dtype() == DType::kQ4_K);  // 4 query heads per KV head
  CHECK(w.layers[0].ffn.down.dtype() == DType::kQ3_K);
  CHECK(w.layers[0].wo.dtype() == DType::kQ3_K);
  CHECK(w.layers[0].wq.dtype() == DType::kQ2_K);

  w = eight_layers();
  apply_llama_cpp_preset(w, "Q3_K_M");
  CHECK(w.layers[1].wv.dtype() == DType::kQ5_K);  // the first two attn_v
  CHECK(w.layers[2].wv.dtype() == DType::kQ4_K);
  CHECK(w.layers[0].ffn.down.dtype() == DType::kQ4_K);  // 0 < 8 / 16 is false
  CHECK(w.layers[0].wo.dtype() == DType::kQ4_K);

  w = eight_layers();
  apply_llama_cpp_preset(w, "Q4_K_S");
  CHECK(w.layers[3].wv.dtype() == DType::kQ5_K);
  CHECK(w.layers[4].wv.dtype() == DType::kQ4_K);
  CHECK(w.layers[0].ffn.down.dtype() == DType::kQ5_K);
  CHECK(w.layers[1].ffn.down.dtype() == DType::kQ4_K);

  w = eight_layers();
  apply_llama_cpp_preset(w, "IQ4_XS");
  CHECK(w.layers[5].wv.dtype() == DType::kQ5_K);
  CHECK(w.layers[0].ffn.down.dtype() == DType::kQ5_K);
  CHECK(w.layers[1].ffn.down.dtype() == DType::kIQ4_XS);

  w = eight_layers();
  apply_llama_cpp_preset(w, "Q8_0");
  CHECK(w.lm_head.dtype() == DType::kQ8_0);
  CHECK(w.layers[0].wv.dtype() == DType::kQ8_0);

  CHECK_THROWS_WITH(apply_llama_cpp_preset(w, "q4_k_m"),
                    Catch::StartsWith("'q4_k_m' is not a llama.cpp preset (allowed: Q4_0,"));
}

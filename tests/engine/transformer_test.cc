#include <catch2/catch.hpp>
#include <cmath>

#include "chunked_forward.h"
#include "engine/forward/reference_forward.h"
#include "engine/forward/transformer.h"
#include "test_models.h"

using namespace infergate;
using infergate::testing::chunked_forward;

namespace {

double max_rel_error(const std::vector<float>& a, const std::vector<float>& b) {
  double scale = 0, err = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    scale = std::max(scale, std::fabs(double(b[i])));
    err = std::max(err, std::fabs(double(a[i]) - double(b[i])));
  }
  return err / scale;
}

}  // namespace

TEST_CASE("optimized forward matches the reference forward within 1e-4 (fp32)", "[model]") {
  const std::vector<int32_t> tokens = {1, 17, 300, 44, 9, 250, 511, 3, 128, 77, 64, 2, 5};
  for (const ModelConfig& c : {testing::small_test_config(), testing::small_moe_config()}) {
    const ModelWeights w = make_synthetic_model(c, 11);
    const std::vector<float> ref = reference_forward(w, tokens);
    for (int chunk : {13, 5, 1}) {
      INFO(c.name << " chunk " << chunk);
      REQUIRE(max_rel_error(chunked_forward(w, tokens, chunk), ref) < 1e-4);
    }
  }
}

TEST_CASE("forward with Qwen2-style attention biases matches the reference", "[model]") {
  ModelConfig c = testing::small_test_config();
  c.attention_bias = true;
  const ModelWeights w = make_synthetic_model(c, 5);
  const std::vector<int32_t> tokens = {1, 2, 3, 400, 401, 402, 7};
  REQUIRE(max_rel_error(chunked_forward(w, tokens, 3), reference_forward(w, tokens)) < 1e-4);
}

TEST_CASE("half-precision KV caches stay close to the fp32 reference", "[model]") {
  const ModelWeights w = make_synthetic_model(testing::small_test_config(), 3);
  const std::vector<int32_t> tokens = {1, 100, 200, 300, 400, 50, 60};
  const std::vector<float> ref = reference_forward(w, tokens);
  REQUIRE(max_rel_error(chunked_forward(w, tokens, 2, DType::kF16), ref) < 5e-3);
  REQUIRE(max_rel_error(chunked_forward(w, tokens, 2, DType::kBF16), ref) < 3e-2);
}

TEST_CASE("MoE routing picks the top-k experts", "[model]") {
  const std::vector<double> logits = {0.1, 2.0, -1.0, 2.0, 0.5, 3.0, -2.0, 0.0};
  REQUIRE(top_k_experts(logits, 2) == std::vector<int>{5, 1});
  REQUIRE(top_k_experts(logits, 3) == std::vector<int>{5, 1, 3});
}

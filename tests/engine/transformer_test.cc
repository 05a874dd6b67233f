#include <catch2/catch.hpp>
#include <cmath>

#include "engine/forward/reference_forward.h"
#include "engine/forward/transformer.h"
#include "test_models.h"

using namespace infergate;

namespace {

// Runs the optimized forward over `tokens` in chunks (all rows' logits), through a paged cache
// whose block table is deliberately scattered.
std::vector<float> chunked_forward(const ModelWeights& w, const std::vector<int32_t>& tokens,
                                   int chunk, DType kv_dtype = DType::kF32) {
  ThreadPool pool(2);
  const int block_size = 4;
  const int blocks = int(tokens.size() + block_size - 1) / block_size;
  KvCacheStorage cache(w.config, blocks * 2 + 3, block_size, kv_dtype);
  std::vector<int32_t> table;
  for (int i = 0; i < blocks; ++i) table.push_back(2 * blocks + 2 - 2 * i);  // reversed, sparse
  Transformer model(w, pool);
  std::vector<float> all;
  for (size_t start = 0; start < tokens.size(); start += size_t(chunk)) {
    const size_t end = std::min(tokens.size(), start + size_t(chunk));
    BatchInput b;
    for (size_t p = start; p < end; ++p) {
      b.token_ids.push_back(tokens[p]);
      b.positions.push_back(int32_t(p));
      b.slot_mapping.push_back(int64_t(table[p / block_size]) * block_size +
                               int64_t(p) % block_size);
      b.logits_rows.push_back(int64_t(p - start));
    }
    b.sequences.push_back({0, int64_t(end - start), int64_t(end), table.data()});
    const std::vector<float> logits = model.forward(b, cache);
    all.insert(all.end(), logits.begin(), logits.end());
  }
  return all;
}

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

// Helpers shared by the model format tests: a scratch directory, raw file bytes, and small
// synthetic configs covering each layout a loader must handle.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "engine/model/model_config.h"
#include "test_models.h"
#include "tests/temp_dir.h"

namespace infergate::testing {

inline std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

inline void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::trunc) << text;
}

// Offset of the first occurrence of `needle` in `bytes` (npos when absent).
inline size_t find_bytes(const std::vector<uint8_t>& bytes, const std::string& needle) {
  const auto it = std::search(bytes.begin(), bytes.end(), needle.begin(), needle.end());
  return it == bytes.end() ? std::string::npos : size_t(it - bytes.begin());
}

// "tiny" cut to 2 layers and 512 tokens, with grouped-query attention and an untied lm_head.
inline ModelConfig dense_gqa_config() { return testing::small_test_config(); }

// Qwen2-style: q/k/v biases and tied embeddings.
inline ModelConfig qwen2_bias_config() {
  ModelConfig c = preset_config("tiny");
  c.name = "qwen2-tiny";
  c.architecture = "qwen2";
  c.num_layers = 2;
  c.vocab_size = 512;
  c.num_kv_heads = 3;
  c.attention_bias = true;
  c.rope_theta = 1000000.0f;
  c.rms_norm_eps = 1e-6f;
  return c;
}

// Mixtral-style: 4 experts, top-2, plus a shared expert.
inline ModelConfig moe_config() {
  ModelConfig c = preset_config("moe-tiny");
  c.num_layers = 2;
  c.vocab_size = 512;
  c.moe.num_experts = 4;
  c.moe.shared_expert_intermediate_size = 64;
  return c;
}

// Small enough that corrupting and re-parsing it hundreds of times stays fast.
inline ModelConfig micro_config() {
  ModelConfig c;
  c.name = "micro";
  c.vocab_size = 300;
  c.hidden_size = 64;
  c.num_layers = 1;
  c.num_heads = 4;
  c.num_kv_heads = 2;
  c.head_dim = 16;
  c.intermediate_size = 128;
  c.max_position_embeddings = 256;
  return c;
}

inline const std::vector<int32_t> kTokens = {1, 42, 300, 7, 259, 511};
inline const std::vector<int32_t> kMicroTokens = {1, 42, 299, 7};

}  // namespace infergate::testing

// Small synthetic models shared by the engine tests (fast enough for the reference forward).
#pragma once

#include "engine/model/model_config.h"
#include "engine/model/synthetic_model.h"
#include "engine/request/sampling_params.h"

namespace infergate::testing {

// Fixed-length generation: EOS does not end it.
inline SamplingParams fixed_tokens(int max_tokens) {
  SamplingParams p;
  p.max_tokens = max_tokens;
  p.ignore_eos = true;
  return p;
}

// tiny, shrunk: 2 layers, 512-token vocabulary, grouped-query attention (6 heads, 2 KV heads).
inline ModelConfig small_test_config() {
  ModelConfig c = preset_config("tiny");
  c.num_layers = 2;
  c.vocab_size = 512;
  c.num_kv_heads = 2;
  c.max_position_embeddings = 256;
  c.tie_word_embeddings = false;
  return c;
}

inline ModelConfig small_moe_config() {
  ModelConfig c = preset_config("moe-tiny");
  c.num_layers = 2;
  c.vocab_size = 512;
  c.max_position_embeddings = 256;
  return c;
}

}  // namespace infergate::testing

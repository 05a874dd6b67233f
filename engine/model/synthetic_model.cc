#include "engine/model/synthetic_model.h"

#include <cmath>
#include <string>
#include <vector>

#include "common/random/splitmix64.h"
#include "common/util/fnv1a.h"

namespace infergate {

namespace {

// The SplitMix64 stream: tiny, well-mixed, and identical everywhere.
struct SplitMix64 {
  uint64_t state;
  double uniform() { return double(splitmix64_next(state) >> 11) * 0x1.0p-53; }  // [0, 1)
};

uint64_t hash_name(const std::string& s, uint64_t seed) {
  return fnv1a64(s, kFnv1a64ShortBasis ^ seed);
}

// Each tensor gets its own stream keyed by name, so adding a tensor never shifts the others.
Tensor random_tensor(const std::string& name, uint64_t seed, std::vector<int64_t> shape,
                     double stddev) {
  Tensor t = Tensor::zeros(DType::kF32, std::move(shape));
  SplitMix64 rng{hash_name(name, seed)};
  float* p = t.mutable_data<float>();
  const int64_t n = t.numel();
  for (int64_t i = 0; i < n; i += 2) {
    const double u1 = 1.0 - rng.uniform(), u2 = rng.uniform();
    const double r = std::sqrt(-2.0 * std::log(u1)) * stddev;
    p[i] = float(r * std::cos(2 * M_PI * u2));
    if (i + 1 < n) p[i + 1] = float(r * std::sin(2 * M_PI * u2));
  }
  return t;
}

Tensor random_matrix(const std::string& name, uint64_t seed, int64_t rows, int64_t cols,
                     double stddev) {
  return random_tensor(name, seed, {rows, cols}, stddev);
}

Tensor norm_weight(const std::string& name, uint64_t seed, int64_t dim) {
  Tensor t = Tensor::zeros(DType::kF32, {dim});
  SplitMix64 rng{hash_name(name, seed)};
  float* p = t.mutable_data<float>();
  for (int64_t i = 0; i < dim; ++i) p[i] = float(0.8 + 0.4 * rng.uniform());
  return t;
}

FfnWeights random_ffn(const std::string& prefix, uint64_t seed, int64_t hidden, int64_t inter,
                      double out_scale) {
  FfnWeights f;
  f.gate = random_matrix(prefix + "gate", seed, inter, hidden, 1.0 / std::sqrt(double(hidden)));
  f.up = random_matrix(prefix + "up", seed, inter, hidden, 1.0 / std::sqrt(double(hidden)));
  f.down =
      random_matrix(prefix + "down", seed, hidden, inter, out_scale / std::sqrt(double(inter)));
  return f;
}

}  // namespace

ModelWeights make_synthetic_model(const ModelConfig& config, uint64_t seed) {
  config.validate();
  ModelWeights w;
  w.config = config;
  w.vocab = synthetic_vocabulary(config.vocab_size);
  const int64_t d = config.hidden_size;
  // Residual branches at full scale and small embeddings: otherwise the residual stream stays
  // close to the input embedding and a tied LM head just echoes the last token.
  const double out_scale = 1.0;
  const double in_std = 1.0 / std::sqrt(double(d));
  w.embed = random_matrix("embed", seed, config.vocab_size, d, 0.1);
  for (int i = 0; i < config.num_layers; ++i) {
    const std::string p = "layer" + std::to_string(i) + ".";
    LayerWeights l;
    l.attn_norm = norm_weight(p + "attn_norm", seed, d);
    l.ffn_norm = norm_weight(p + "ffn_norm", seed, d);
    l.wq = random_matrix(p + "wq", seed, config.q_size(), d, in_std);
    l.wk = random_matrix(p + "wk", seed, config.kv_size(), d, in_std);
    l.wv = random_matrix(p + "wv", seed, config.kv_size(), d, in_std);
    l.wo = random_matrix(p + "wo", seed, d, config.q_size(),
                         out_scale / std::sqrt(double(config.q_size())));
    if (config.attention_bias) {
      l.bq = random_tensor(p + "bq", seed, {config.q_size()}, 0.1);
      l.bk = random_tensor(p + "bk", seed, {config.kv_size()}, 0.1);
      l.bv = random_tensor(p + "bv", seed, {config.kv_size()}, 0.1);
    }
    if (config.qk_norm) {
      l.q_norm = norm_weight(p + "q_norm", seed, config.head_dim);
      l.k_norm = norm_weight(p + "k_norm", seed, config.head_dim);
    }
    if (config.is_moe()) {
      const MoeConfig& m = config.moe;
      l.router = random_matrix(p + "router", seed, m.num_experts, d, 4.0 * in_std);
      for (int e = 0; e < m.num_experts; ++e) {
        l.experts.push_back(random_ffn(p + "expert" + std::to_string(e) + ".", seed, d,
                                       m.expert_intermediate_size, out_scale));
      }
      if (m.shared_expert_intermediate_size > 0) {
        l.shared_expert =
            random_ffn(p + "shared.", seed, d, m.shared_expert_intermediate_size, out_scale);
      }
    } else {
      l.ffn = random_ffn(p + "ffn.", seed, d, config.intermediate_size, out_scale);
    }
    w.layers.push_back(std::move(l));
  }
  w.final_norm = norm_weight("final_norm", seed, d);
  if (!config.tie_word_embeddings) {
    // Scaled up so logits after the final norm have std ~3: peaked, not flat.
    w.lm_head = random_matrix("lm_head", seed, config.vocab_size, d, 3.0 * in_std);
  }
  return w;
}

}  // namespace infergate

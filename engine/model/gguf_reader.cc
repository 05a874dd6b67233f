#include "engine/model/gguf_reader.h"

#include <cmath>
#include <filesystem>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "engine/model/gguf_file.h"
#include "engine/model/gguf_vocab.h"
#include "engine/model/model_load_error.h"
#include "engine/model/rotary_permute.h"
#include "engine/model/tensor_table.h"

namespace infergate {

namespace {

constexpr int64_t kMaxHparam = int64_t(1) << 24;  // bounds any size/count hyper-parameter

int hparam(const GgufFile& g, const std::string& key,
           std::optional<int64_t> fallback = std::nullopt) {
  const int64_t v = fallback ? g.get_int(key, *fallback) : g.get_int(key);
  if (v < 0 || v > kMaxHparam) {
    throw ModelLoadError(g.path(),
                         "metadata '" + key + "' = " + std::to_string(v) + " is out of range");
  }
  return int(v);
}

// A float hyper-parameter: finite and > 0 also after rounding to float (a float64 1e39 is inf),
// since a NaN epsilon or an infinite RoPE base loads fine and generates garbage.
float positive_hparam(const GgufFile& g, const std::string& key,
                      std::optional<double> fallback = std::nullopt) {
  const float v = float(fallback ? g.get_float(key, *fallback) : g.get_float(key));
  if (!std::isfinite(v) || !(v > 0)) {
    std::ostringstream text;
    text << v;
    throw ModelLoadError(g.path(),
                         "metadata '" + key + "' = " + text.str() + " must be a finite number > 0");
  }
  return v;
}

void read_attention_shape(const GgufFile& g, const std::string& p, ModelConfig& c) {
  c.num_heads = hparam(g, p + "attention.head_count");
  c.num_kv_heads = hparam(g, p + "attention.head_count_kv", c.num_heads);
  if (c.num_heads == 0) throw ModelLoadError(g.path(), p + "attention.head_count is 0");
  c.head_dim = hparam(g, p + "attention.key_length", c.hidden_size / c.num_heads);
  const int value_dim = hparam(g, p + "attention.value_length", c.head_dim);
  const int rope_dim = hparam(g, p + "rope.dimension_count", c.head_dim);
  if (value_dim != c.head_dim || rope_dim != c.head_dim) {
    throw ModelLoadError(g.path(), "unsupported attention shape: key_length " +
                                       std::to_string(c.head_dim) + ", value_length " +
                                       std::to_string(value_dim) + ", rope.dimension_count " +
                                       std::to_string(rope_dim) + " must all be equal");
  }
}

// llama.cpp's rope.scaling.* keys (its rope_freqs tensor is read with the tensors).
void read_rope_scaling(const GgufFile& g, const std::string& p, ModelConfig& c) {
  RopeScaling& s = c.rope_scaling;
  s.type = g.get_string(p + "rope.scaling.type", "none");
  if (s.type != "none" && s.type != "linear" && s.type != "yarn") {
    throw ModelLoadError(g.path(), "unsupported RoPE scaling '" + s.type + "' in '" + p +
                                       "rope.scaling.type' (supported: none, linear, yarn)");
  }
  // Older files give a linear factor as rope.scale_linear.
  const double legacy = g.get_float(p + "rope.scale_linear", 1.0);
  if (s.type == "none" && legacy != 1.0) s.type = "linear";
  if (s.type == "none") return;
  s.factor = positive_hparam(g, p + "rope.scaling.factor", legacy);
  if (s.type != "yarn") return;
  s.original_max_position_embeddings =
      hparam(g, p + "rope.scaling.original_context_length", c.max_position_embeddings);
  s.beta_fast = positive_hparam(g, p + "rope.scaling.yarn_beta_fast", 32.0);
  s.beta_slow = positive_hparam(g, p + "rope.scaling.yarn_beta_slow", 1.0);
  const double attn = positive_hparam(g, p + "rope.scaling.attn_factor", 1.0);
  if (attn != 1.0) s.attention_factor = attn * (0.1 * std::log(s.factor) + 1);
  if (g.get_float(p + "rope.scaling.yarn_log_multiplier", 0.0) != 0.0) {
    throw ModelLoadError(g.path(), "unsupported '" + p +
                                       "rope.scaling.yarn_log_multiplier' (DeepSeek's YaRN "
                                       "mscale; plain YaRN only)");
  }
}

void read_ffn_shape(const GgufFile& g, const std::string& p, ModelConfig& c) {
  const int ff = hparam(g, p + "feed_forward_length");
  c.moe.num_experts = hparam(g, p + "expert_count", 0);
  if (!c.is_moe()) {
    c.intermediate_size = ff;
    return;
  }
  // llama.cpp sizes Mixtral's experts by feed_forward_length.
  c.intermediate_size = 0;
  c.moe.top_k = hparam(g, p + "expert_used_count");
  c.moe.expert_intermediate_size = hparam(g, p + "expert_feed_forward_length", ff);
  c.moe.shared_expert_intermediate_size = hparam(g, p + "expert_shared_feed_forward_length", 0);
  c.moe.normalize_top_k = g.get_bool(p + "expert_weights_norm", true);
}

ModelConfig read_config(const GgufFile& g, const std::string& arch) {
  const std::string p = arch + ".";
  ModelConfig c;
  c.name = g.get_string("general.name", std::filesystem::path(g.path()).stem().string());
  c.max_position_embeddings = hparam(g, p + "context_length");
  c.hidden_size = hparam(g, p + "embedding_length");
  c.num_layers = hparam(g, p + "block_count");
  c.rope_theta = positive_hparam(g, p + "rope.freq_base", 10000.0);
  c.rms_norm_eps = positive_hparam(g, p + "attention.layer_norm_rms_epsilon");
  read_attention_shape(g, p, c);
  read_rope_scaling(g, p, c);
  c.sliding_window = hparam(g, p + "attention.sliding_window", 0);
  read_ffn_shape(g, p, c);
  c.architecture = arch == "llama" && c.is_moe() ? "mixtral" : arch;
  return c;
}

TensorTable read_tensor_table(const GgufFile& g) {
  TensorTable t(g.path());
  for (const GgufTensorInfo& info : g.tensors()) t.add(info.name, g.tensor(info), g.path());
  return t;
}

// The vocabulary size is token_embd's row count; metadata that disagrees is an error.
int read_vocab_size(const GgufFile& g, const TensorTable& t, const std::string& arch,
                    size_t num_tokens) {
  const std::vector<int64_t>& s = t.shape_of("token_embd.weight");
  const int64_t rows = s.empty() ? 0 : s[0];
  const int64_t declared = g.get_int(arch + ".vocab_size", rows);
  if (declared != rows || uint64_t(rows) != num_tokens) {
    throw ModelLoadError(g.path(), "shape mismatch: token_embd.weight has " + std::to_string(rows) +
                                       " rows, the tokenizer " + std::to_string(num_tokens) +
                                       " tokens and " + arch + ".vocab_size is " +
                                       std::to_string(declared));
  }
  return int(rows);
}

FfnWeights read_ffn(TensorTable& t, const std::string& p, const std::string& suffix, int64_t d,
                    int64_t ff) {
  FfnWeights f;
  f.gate = t.take(p + "ffn_gate" + suffix + ".weight", {ff, d});
  f.up = t.take(p + "ffn_up" + suffix + ".weight", {ff, d});
  f.down = t.take(p + "ffn_down" + suffix + ".weight", {d, ff});
  return f;
}

// Mixtral-style experts are stored stacked: ffn_{gate,up,down}_exps [experts, rows, cols].
void read_experts(TensorTable& t, const std::string& p, const ModelConfig& c, LayerWeights& l) {
  const int64_t d = c.hidden_size, ff = c.moe.expert_intermediate_size, e = c.moe.num_experts;
  l.router = t.take_f32(p + "ffn_gate_inp.weight", {e, d});
  const Tensor gate = t.take(p + "ffn_gate_exps.weight", {e, ff, d});
  const Tensor up = t.take(p + "ffn_up_exps.weight", {e, ff, d});
  const Tensor down = t.take(p + "ffn_down_exps.weight", {e, d, ff});
  for (int64_t i = 0; i < e; ++i) {
    l.experts.push_back({slice_outer(gate, i), slice_outer(up, i), slice_outer(down, i)});
  }
  if (c.moe.shared_expert_intermediate_size > 0) {
    l.shared_expert = read_ffn(t, p, "_shexp", d, c.moe.shared_expert_intermediate_size);
  }
}

LayerWeights read_layer(TensorTable& t, const ModelConfig& c, int i, bool unpermute) {
  const std::string p = "blk." + std::to_string(i) + ".";
  const int64_t d = c.hidden_size, q = c.q_size(), kv = c.kv_size();
  LayerWeights l;
  l.attn_norm = t.take_f32(p + "attn_norm.weight", {d});
  l.wq = t.take(p + "attn_q.weight", {q, d});
  l.wk = t.take(p + "attn_k.weight", {kv, d});
  l.wv = t.take(p + "attn_v.weight", {kv, d});
  l.wo = t.take(p + "attn_output.weight", {d, q});
  if (c.attention_bias) {
    l.bq = t.take_f32(p + "attn_q.bias", {q});
    l.bk = t.take_f32(p + "attn_k.bias", {kv});
    l.bv = t.take_f32(p + "attn_v.bias", {kv});
  }
  if (c.qk_norm) {
    l.q_norm = t.take_f32(p + "attn_q_norm.weight", {c.head_dim});
    l.k_norm = t.take_f32(p + "attn_k_norm.weight", {c.head_dim});
  }
  if (unpermute) {
    l.wq = unpermute_rotary_rows(l.wq, c.num_heads);
    l.wk = unpermute_rotary_rows(l.wk, c.num_kv_heads);
    if (l.bq.defined()) l.bq = unpermute_rotary_rows(l.bq, c.num_heads);
    if (l.bk.defined()) l.bk = unpermute_rotary_rows(l.bk, c.num_kv_heads);
  }
  l.ffn_norm = t.take_f32(p + "ffn_norm.weight", {d});
  if (c.is_moe()) {
    read_experts(t, p, c, l);
  } else {
    l.ffn = read_ffn(t, p, "", d, c.intermediate_size);
  }
  return l;
}

void validate_config(const std::string& path, const ModelConfig& c) {
  try {
    c.validate();
  } catch (const std::invalid_argument& e) {
    throw ModelLoadError(path, e.what());
  }
}

}  // namespace

ModelWeights read_gguf(const std::string& path) {
  const GgufFile g = GgufFile::parse(MappedFile::open(path));
  const std::string arch = g.get_string("general.architecture");
  if (arch != "llama" && arch != "qwen2" && arch != "qwen3") {
    throw ModelLoadError(
        path, "unsupported architecture '" + arch + "' (supported: llama, qwen2, qwen3)");
  }
  ModelWeights w;
  w.config = read_config(g, arch);
  w.vocab = read_gguf_vocab(g);
  TensorTable t = read_tensor_table(g);
  ModelConfig& c = w.config;
  c.vocab_size = read_vocab_size(g, t, arch, w.vocab.size());
  c.tie_word_embeddings = !t.contains("output.weight");
  c.attention_bias = t.contains("blk.0.attn_q.bias");
  c.qk_norm = arch == "qwen3";
  if (t.contains("rope_freqs.weight")) {
    const Tensor f = t.take_f32("rope_freqs.weight", {c.head_dim / 2});
    c.rope_scaling.freq_factors.assign(f.data<float>(), f.data<float>() + f.numel());
  }
  c.bos_token_id = w.vocab.bos_id;
  c.eos_token_id = w.vocab.eos_id;
  validate_config(path, c);
  const int64_t d = c.hidden_size;
  w.embed = t.take("token_embd.weight", {c.vocab_size, d});
  // Only llama.cpp's "llama" converter permutes Q/K; qwen2 and qwen3 keep HF order (NeoX RoPE).
  const bool unpermute = arch == "llama";
  for (int i = 0; i < c.num_layers; ++i) w.layers.push_back(read_layer(t, c, i, unpermute));
  w.final_norm = t.take_f32("output_norm.weight", {d});
  if (!c.tie_word_embeddings) w.lm_head = t.take("output.weight", {c.vocab_size, d});
  t.expect_all_taken();
  return w;
}

}  // namespace infergate

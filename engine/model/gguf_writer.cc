#include "engine/model/gguf_writer.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "common/io/atomic_file.h"
#include "engine/model/rope_scaling.h"
#include "engine/model/rotary_permute.h"

namespace infergate {

namespace {

// llama.cpp's name for the architecture: Qwen3's per-head q/k norms need "qwen3"; everything
// else is written as "llama" (Mistral, Mixtral and Qwen2's biases included).
std::string gguf_architecture(const ModelConfig& c) { return c.qk_norm ? "qwen3" : "llama"; }

template <typename T>
void put_raw(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof(T));
}

void put_string(std::string& out, const std::string& s) {
  put_raw<uint64_t>(out, s.size());
  out += s;
}

// The metadata key/value section, encoded as it is added.
class Metadata {
 public:
  void u32(const std::string& key, uint32_t v) {
    head(key, GgufValueType::kUint32);
    put_raw(buf_, v);
  }
  void f32(const std::string& key, float v) {
    head(key, GgufValueType::kFloat32);
    put_raw(buf_, v);
  }
  void boolean(const std::string& key, bool v) {
    head(key, GgufValueType::kBool);
    put_raw<uint8_t>(buf_, v ? 1 : 0);
  }
  void str(const std::string& key, const std::string& v) {
    head(key, GgufValueType::kString);
    put_string(buf_, v);
  }
  void strs(const std::string& key, const std::vector<std::string>& v) {
    array_head(key, GgufValueType::kString, v.size());
    for (const std::string& s : v) put_string(buf_, s);
  }
  template <typename T>
  void nums(const std::string& key, GgufValueType type, const std::vector<T>& v) {
    array_head(key, type, v.size());
    for (T x : v) put_raw(buf_, x);
  }
  uint64_t count() const { return count_; }
  const std::string& bytes() const { return buf_; }

 private:
  void head(const std::string& key, GgufValueType type) {
    put_string(buf_, key);
    put_raw(buf_, uint32_t(type));
    ++count_;
  }
  void array_head(const std::string& key, GgufValueType type, size_t n) {
    head(key, GgufValueType::kArray);
    put_raw(buf_, uint32_t(type));
    put_raw<uint64_t>(buf_, n);
  }

  std::string buf_;
  uint64_t count_ = 0;
};

// One GGUF tensor: a single tensor, or the per-expert tensors stacked along a new outer dim.
struct OutTensor {
  std::string name;
  std::vector<int64_t> shape;  // row-major (ours); GGUF stores it reversed
  DType dtype = DType::kF32;
  std::vector<Tensor> parts;
  uint64_t offset = 0;

  uint64_t nbytes() const { return dtype_bytes(dtype, parts[0].numel()) * parts.size(); }
};

OutTensor single(const std::string& name, const Tensor& t) {
  return OutTensor{name, t.shape(), t.dtype(), {t}, 0};
}

OutTensor stacked(const std::string& name, const std::vector<Tensor>& parts) {
  for (const Tensor& p : parts) {
    if (p.dtype() != parts[0].dtype() || p.shape() != parts[0].shape()) {
      throw std::invalid_argument("gguf export: experts stacked into '" + name +
                                  "' differ in dtype or shape");
    }
  }
  std::vector<int64_t> shape = parts[0].shape();
  shape.insert(shape.begin(), int64_t(parts.size()));
  return OutTensor{name, shape, parts[0].dtype(), parts, 0};
}

void add_ffn(std::vector<OutTensor>& out, const std::string& p, const std::string& suffix,
             const FfnWeights& f) {
  out.push_back(single(p + "ffn_gate" + suffix + ".weight", f.gate));
  out.push_back(single(p + "ffn_up" + suffix + ".weight", f.up));
  out.push_back(single(p + "ffn_down" + suffix + ".weight", f.down));
}

void add_experts(std::vector<OutTensor>& out, const std::string& p, const LayerWeights& l) {
  std::vector<Tensor> gate, up, down;
  for (const FfnWeights& e : l.experts) {
    gate.push_back(e.gate);
    up.push_back(e.up);
    down.push_back(e.down);
  }
  out.push_back(single(p + "ffn_gate_inp.weight", l.router));
  out.push_back(stacked(p + "ffn_gate_exps.weight", gate));
  out.push_back(stacked(p + "ffn_up_exps.weight", up));
  out.push_back(stacked(p + "ffn_down_exps.weight", down));
}

void add_layer(std::vector<OutTensor>& out, const ModelConfig& c, int i, const LayerWeights& l) {
  const std::string p = "blk." + std::to_string(i) + ".";
  // llama.cpp rotates "llama" q/k as interleaved pairs (its converter permutes the rows) and
  // "qwen3" in Hugging Face's rotate-half order.
  const bool permute = gguf_architecture(c) == "llama";
  auto rotary = [&](const Tensor& t, int heads) {
    return permute ? permute_rotary_rows(t, heads) : t;
  };
  out.push_back(single(p + "attn_norm.weight", l.attn_norm));
  out.push_back(single(p + "attn_q.weight", rotary(l.wq, c.num_heads)));
  out.push_back(single(p + "attn_k.weight", rotary(l.wk, c.num_kv_heads)));
  out.push_back(single(p + "attn_v.weight", l.wv));
  if (l.bq.defined()) out.push_back(single(p + "attn_q.bias", rotary(l.bq, c.num_heads)));
  if (l.bk.defined()) out.push_back(single(p + "attn_k.bias", rotary(l.bk, c.num_kv_heads)));
  if (l.bv.defined()) out.push_back(single(p + "attn_v.bias", l.bv));
  if (l.q_norm.defined()) out.push_back(single(p + "attn_q_norm.weight", l.q_norm));
  if (l.k_norm.defined()) out.push_back(single(p + "attn_k_norm.weight", l.k_norm));
  out.push_back(single(p + "attn_output.weight", l.wo));
  out.push_back(single(p + "ffn_norm.weight", l.ffn_norm));
  if (l.experts.empty()) {
    add_ffn(out, p, "", l.ffn);
  } else {
    add_experts(out, p, l);
  }
  if (l.shared_expert.gate.defined()) add_ffn(out, p, "_shexp", l.shared_expert);
}

// Llama 3's scaling, or factors read from a GGUF, as llama.cpp's rope_freqs tensor.
Tensor rope_freqs(const ModelConfig& c) {
  const std::vector<float> factors =
      c.rope_scaling.type == "llama3" ? llama3_frequency_factors(c) : c.rope_scaling.freq_factors;
  if (factors.empty()) return Tensor();
  Tensor t = Tensor::zeros(DType::kF32, {int64_t(factors.size())});
  std::copy(factors.begin(), factors.end(), t.mutable_data<float>());
  return t;
}

std::vector<OutTensor> collect_tensors(const ModelWeights& w) {
  std::vector<OutTensor> out;
  out.push_back(single("token_embd.weight", w.embed));
  if (const Tensor f = rope_freqs(w.config); f.defined()) {
    out.push_back(single("rope_freqs.weight", f));
  }
  for (size_t i = 0; i < w.layers.size(); ++i) add_layer(out, w.config, int(i), w.layers[i]);
  out.push_back(single("output_norm.weight", w.final_norm));
  if (w.lm_head.defined()) out.push_back(single("output.weight", w.lm_head));
  for (const OutTensor& t : out) {
    const int64_t block = dtype_block_elems(t.dtype);
    if (t.shape.back() % block != 0) {
      throw std::invalid_argument("gguf export: '" + t.name + "' is " + dtype_name(t.dtype) +
                                  " but its rows of " + std::to_string(t.shape.back()) +
                                  " elements are not whole " + std::to_string(block) +
                                  "-element blocks");
    }
  }
  return out;
}

void add_rope_scaling(Metadata& m, const ModelConfig& c, const std::string& a) {
  const RopeScaling& s = c.rope_scaling;
  if (s.type == "linear" || s.type == "yarn") {
    m.str(a + "rope.scaling.type", s.type);
    m.f32(a + "rope.scaling.factor", float(s.factor));
  }
  if (s.type != "yarn") return;
  m.u32(a + "rope.scaling.original_context_length",
        uint32_t(s.original_max_position_embeddings > 0 ? s.original_max_position_embeddings
                                                        : c.max_position_embeddings));
  m.f32(a + "rope.scaling.yarn_beta_fast", float(s.beta_fast));
  m.f32(a + "rope.scaling.yarn_beta_slow", float(s.beta_slow));
  // llama.cpp multiplies cos/sin by attn_factor * (0.1 ln(factor) + 1).
  if (s.attention_factor > 0) {
    m.f32(a + "rope.scaling.attn_factor",
          float(s.attention_factor / (0.1 * std::log(s.factor) + 1)));
  }
}

void add_hparams(Metadata& m, const ModelWeights& w) {
  const ModelConfig& c = w.config;
  const bool moe = c.is_moe();
  const std::string a = gguf_architecture(c) + ".";
  m.u32(a + "vocab_size", uint32_t(c.vocab_size));
  m.u32(a + "context_length", uint32_t(c.max_position_embeddings));
  m.u32(a + "embedding_length", uint32_t(c.hidden_size));
  m.u32(a + "block_count", uint32_t(c.num_layers));
  // llama.cpp sizes Mixtral's experts by feed_forward_length.
  m.u32(a + "feed_forward_length",
        uint32_t(moe ? c.moe.expert_intermediate_size : c.intermediate_size));
  m.u32(a + "attention.head_count", uint32_t(c.num_heads));
  m.u32(a + "attention.head_count_kv", uint32_t(c.num_kv_heads));
  m.u32(a + "attention.key_length", uint32_t(c.head_dim));
  m.u32(a + "attention.value_length", uint32_t(c.head_dim));
  m.u32(a + "rope.dimension_count", uint32_t(c.head_dim));
  // dynamic NTK is one fixed base here (rope_scaling.h), which llama.cpp takes as it is.
  m.f32(a + "rope.freq_base",
        c.rope_scaling.type == "dynamic" ? float(dynamic_ntk_base(c)) : c.rope_theta);
  add_rope_scaling(m, c, a);
  // llama.cpp reads this key for its SWA architectures only; a "llama" file runs full attention
  // there, as every Mistral GGUF does.
  if (c.sliding_window > 0) m.u32(a + "attention.sliding_window", uint32_t(c.sliding_window));
  m.f32(a + "attention.layer_norm_rms_epsilon", c.rms_norm_eps);
  if (!moe) return;
  m.u32(a + "expert_count", uint32_t(c.moe.num_experts));
  m.u32(a + "expert_used_count", uint32_t(c.moe.top_k));
  m.u32(a + "expert_feed_forward_length", uint32_t(c.moe.expert_intermediate_size));
  m.boolean(a + "expert_weights_norm", c.moe.normalize_top_k);
  if (c.moe.shared_expert_intermediate_size > 0) {
    m.u32(a + "expert_shared_feed_forward_length", uint32_t(c.moe.shared_expert_intermediate_size));
  }
}

Vocabulary vocabulary_to_write(const ModelWeights& w) {
  Vocabulary v = w.vocab.size() == 0 ? synthetic_vocabulary(w.config.vocab_size) : w.vocab;
  if (v.size() != size_t(w.config.vocab_size)) {
    throw std::invalid_argument("gguf export: the vocabulary has " + std::to_string(v.size()) +
                                " tokens but vocab_size is " + std::to_string(w.config.vocab_size));
  }
  if (v.scores.size() != v.size()) v.scores.assign(v.size(), 0.0f);
  if (v.types.size() != v.size()) v.types.assign(v.size(), TokenType::kNormal);
  return v;
}

void add_tokenizer(Metadata& m, const ModelWeights& w) {
  const Vocabulary v = vocabulary_to_write(w);
  std::vector<int32_t> types;
  for (TokenType t : v.types) types.push_back(int32_t(t));
  m.str("tokenizer.ggml.model", v.model);
  m.strs("tokenizer.ggml.tokens", v.tokens);
  m.nums("tokenizer.ggml.scores", GgufValueType::kFloat32, v.scores);
  m.nums("tokenizer.ggml.token_type", GgufValueType::kInt32, types);
  if (!v.merges.empty()) m.strs("tokenizer.ggml.merges", v.merges);
  if (v.bos_id >= 0) m.u32("tokenizer.ggml.bos_token_id", uint32_t(v.bos_id));
  if (v.eos_id >= 0) m.u32("tokenizer.ggml.eos_token_id", uint32_t(v.eos_id));
  if (v.unk_id >= 0) m.u32("tokenizer.ggml.unknown_token_id", uint32_t(v.unk_id));
  if (!v.pre.empty()) m.str("tokenizer.ggml.pre", v.pre);
  m.boolean("tokenizer.ggml.add_bos_token", v.add_bos.value_or(v.model == "llama"));
  m.boolean("tokenizer.ggml.add_eos_token", false);
  if (v.add_space_prefix) m.boolean("tokenizer.ggml.add_space_prefix", *v.add_space_prefix);
  if (!v.chat_template.empty()) m.str("tokenizer.chat_template", v.chat_template);
}

Metadata build_metadata(const ModelWeights& w, const std::vector<OutTensor>& tensors,
                        uint32_t alignment) {
  Metadata m;
  const DType matrices = w.layers.empty() ? w.embed.dtype() : w.layers[0].wq.dtype();
  m.str("general.architecture", gguf_architecture(w.config));
  m.str("general.name", w.config.name);
  m.u32("general.alignment", alignment);
  m.u32("general.file_type", gguf_file_type(matrices));
  for (const OutTensor& t : tensors) {
    if (is_block_quantized(t.dtype)) {
      m.u32("general.quantization_version", 2);  // GGML_QNT_VERSION
      break;
    }
  }
  add_hparams(m, w);
  add_tokenizer(m, w);
  return m;
}

uint64_t align_up(uint64_t n, uint64_t a) { return (n + a - 1) / a * a; }

std::string tensor_infos(std::vector<OutTensor>& tensors, uint64_t alignment) {
  std::string out;
  uint64_t offset = 0;
  for (OutTensor& t : tensors) {
    t.offset = offset;
    put_string(out, t.name);
    put_raw(out, uint32_t(t.shape.size()));
    for (auto it = t.shape.rbegin(); it != t.shape.rend(); ++it) put_raw(out, uint64_t(*it));
    put_raw(out, uint32_t(ggml_type_from_dtype(t.dtype)));
    put_raw(out, t.offset);
    offset = align_up(offset + t.nbytes(), alignment);
  }
  return out;
}

}  // namespace

void write_gguf(const ModelWeights& w, const std::string& path, const GgufWriteOptions& options) {
  const uint32_t alignment = options.alignment;
  if (alignment < 8 || std::popcount(alignment) != 1) {
    throw std::invalid_argument("gguf export: alignment must be a power of two >= 8, got " +
                                std::to_string(alignment));
  }
  std::vector<OutTensor> tensors = collect_tensors(w);
  const Metadata meta = build_metadata(w, tensors, alignment);
  const std::string infos = tensor_infos(tensors, alignment);
  AtomicFile f(path);
  std::string header;
  put_raw(header, kGgufMagic);
  put_raw(header, kGgufVersion);
  put_raw<uint64_t>(header, tensors.size());
  put_raw<uint64_t>(header, meta.count());
  f.write(header);
  f.write(meta.bytes());
  f.write(infos);
  const uint64_t data_start = align_up(f.position(), alignment);
  f.write_zeros(size_t(data_start - f.position()));
  for (const OutTensor& t : tensors) {
    f.write_zeros(size_t(data_start + t.offset - f.position()));
    for (const Tensor& part : t.parts) f.write(part.raw(), part.nbytes());
  }
  f.write_zeros(size_t(align_up(f.position(), alignment) - f.position()));
  f.commit();
}

}  // namespace infergate

#include "engine/model/gguf_writer.h"

#include <bit>
#include <stdexcept>
#include <vector>

#include "common/io/atomic_file.h"
#include "engine/model/rotary_permute.h"

namespace infergate {

namespace {

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
  out.push_back(single(p + "attn_norm.weight", l.attn_norm));
  out.push_back(single(p + "attn_q.weight", permute_rotary_rows(l.wq, c.num_heads)));
  out.push_back(single(p + "attn_k.weight", permute_rotary_rows(l.wk, c.num_kv_heads)));
  out.push_back(single(p + "attn_v.weight", l.wv));
  if (l.bq.defined()) {
    out.push_back(single(p + "attn_q.bias", permute_rotary_rows(l.bq, c.num_heads)));
  }
  if (l.bk.defined()) {
    out.push_back(single(p + "attn_k.bias", permute_rotary_rows(l.bk, c.num_kv_heads)));
  }
  if (l.bv.defined()) out.push_back(single(p + "attn_v.bias", l.bv));
  out.push_back(single(p + "attn_output.weight", l.wo));
  out.push_back(single(p + "ffn_norm.weight", l.ffn_norm));
  if (l.experts.empty()) {
    add_ffn(out, p, "", l.ffn);
  } else {
    add_experts(out, p, l);
  }
  if (l.shared_expert.gate.defined()) add_ffn(out, p, "_shexp", l.shared_expert);
}

std::vector<OutTensor> collect_tensors(const ModelWeights& w) {
  std::vector<OutTensor> out;
  out.push_back(single("token_embd.weight", w.embed));
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

void add_hparams(Metadata& m, const ModelWeights& w) {
  const ModelConfig& c = w.config;
  const bool moe = c.is_moe();
  m.u32("llama.vocab_size", uint32_t(c.vocab_size));
  m.u32("llama.context_length", uint32_t(c.max_position_embeddings));
  m.u32("llama.embedding_length", uint32_t(c.hidden_size));
  m.u32("llama.block_count", uint32_t(c.num_layers));
  // llama.cpp sizes Mixtral's experts by feed_forward_length.
  m.u32("llama.feed_forward_length",
        uint32_t(moe ? c.moe.expert_intermediate_size : c.intermediate_size));
  m.u32("llama.attention.head_count", uint32_t(c.num_heads));
  m.u32("llama.attention.head_count_kv", uint32_t(c.num_kv_heads));
  m.u32("llama.attention.key_length", uint32_t(c.head_dim));
  m.u32("llama.attention.value_length", uint32_t(c.head_dim));
  m.u32("llama.rope.dimension_count", uint32_t(c.head_dim));
  m.f32("llama.rope.freq_base", c.rope_theta);
  m.f32("llama.attention.layer_norm_rms_epsilon", c.rms_norm_eps);
  if (!moe) return;
  m.u32("llama.expert_count", uint32_t(c.moe.num_experts));
  m.u32("llama.expert_used_count", uint32_t(c.moe.top_k));
  m.u32("llama.expert_feed_forward_length", uint32_t(c.moe.expert_intermediate_size));
  m.boolean("llama.expert_weights_norm", c.moe.normalize_top_k);
  if (c.moe.shared_expert_intermediate_size > 0) {
    m.u32("llama.expert_shared_feed_forward_length",
          uint32_t(c.moe.shared_expert_intermediate_size));
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
  m.u32("tokenizer.ggml.bos_token_id", uint32_t(v.bos_id));
  m.u32("tokenizer.ggml.eos_token_id", uint32_t(v.eos_id));
  m.u32("tokenizer.ggml.unknown_token_id", uint32_t(v.unk_id));
  m.boolean("tokenizer.ggml.add_bos_token", v.model == "llama");
  m.boolean("tokenizer.ggml.add_eos_token", false);
}

Metadata build_metadata(const ModelWeights& w, const std::vector<OutTensor>& tensors,
                        uint32_t alignment) {
  Metadata m;
  const DType matrices = w.layers.empty() ? w.embed.dtype() : w.layers[0].wq.dtype();
  m.str("general.architecture", "llama");
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

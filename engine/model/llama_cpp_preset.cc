#include "engine/model/llama_cpp_preset.h"

#include <stdexcept>

#include "kernels/cpu/convert.h"

namespace infergate {

namespace {

struct Preset {
  const char* name;
  DType base;
};

constexpr Preset kPresets[] = {
    {"Q4_0", DType::kQ4_0},     {"Q4_1", DType::kQ4_1},   {"Q5_0", DType::kQ5_0},
    {"Q5_1", DType::kQ5_1},     {"Q8_0", DType::kQ8_0},   {"Q2_K", DType::kQ2_K},
    {"Q3_K_S", DType::kQ3_K},   {"Q3_K_M", DType::kQ3_K}, {"Q3_K_L", DType::kQ3_K},
    {"Q4_K_S", DType::kQ4_K},   {"Q4_K_M", DType::kQ4_K}, {"Q5_K_S", DType::kQ5_K},
    {"Q5_K_M", DType::kQ5_K},   {"Q6_K", DType::kQ6_K},   {"IQ4_NL", DType::kIQ4_NL},
    {"IQ4_XS", DType::kIQ4_XS},
};

const Preset* find_preset(const std::string& name) {
  for (const Preset& p : kPresets) {
    if (name == p.name) return &p;
  }
  return nullptr;
}

// llama.cpp's use_more_bits: the first and last eighth of the layers, and every third between.
bool use_more_bits(int i, int n) { return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2; }

// What one preset gives each kind of tensor of one model.
class Mixture {
 public:
  Mixture(const std::string& name, DType base, const ModelConfig& c)
      : p_(name),
        base_(base),
        layers_(c.num_layers),
        gqa_(c.num_heads / c.num_kv_heads),
        eight_experts_(c.moe.num_experts == 8) {}

  // The LM head, and the embeddings when they are the LM head too.
  DType output(int64_t row_length) const {
    if (row_length % dtype_block_elems(base_) != 0) return DType::kQ8_0;
    return base_ == DType::kQ8_0 ? base_ : DType::kQ6_K;
  }
  DType attn_v(int layer) const {
    DType t = base_;
    if (p_ == "Q2_K") t = gqa_ >= 4 ? DType::kQ4_K : DType::kQ3_K;
    if (p_ == "Q3_K_M") t = layer < 2 ? DType::kQ5_K : DType::kQ4_K;
    if (p_ == "Q3_K_L") t = DType::kQ5_K;
    if ((p_ == "IQ4_NL" || p_ == "IQ4_XS") && gqa_ >= 4) t = DType::kQ5_K;
    if ((p_ == "Q4_K_M" || p_ == "Q5_K_M") && use_more_bits(layer, layers_)) t = DType::kQ6_K;
    if (p_ == "Q4_K_S" && layer < 4) t = DType::kQ5_K;
    return eight_experts_ ? DType::kQ8_0 : t;
  }
  DType attn_k() const { return eight_experts_ ? DType::kQ8_0 : base_; }
  // `count` ffn_down tensors in all (a MoE layer's experts are one; a shared expert another).
  DType ffn_down(int layer, int count) const {
    if (p_ == "Q2_K") return DType::kQ3_K;
    if (p_ == "Q3_K_M") return layer < count / 16 ? DType::kQ5_K : DType::kQ4_K;
    if (p_ == "Q3_K_L") return DType::kQ5_K;
    if (p_ == "Q4_K_M" && use_more_bits(layer, count)) return DType::kQ6_K;
    if ((p_ == "IQ4_NL" || p_ == "IQ4_XS") && layer < count / 8) return DType::kQ5_K;
    if (p_ == "Q5_K_M" && use_more_bits(layer, count)) return DType::kQ6_K;
    if (p_ == "Q4_K_S" && layer < count / 8) return DType::kQ5_K;
    return base_;
  }
  DType attn_output() const {
    if (eight_experts_) {
      for (const char* q : {"Q2_K", "Q3_K_S", "Q3_K_M", "IQ4_NL", "Q4_K_S", "Q4_K_M", "IQ4_XS"}) {
        if (p_ == q) return DType::kQ5_K;
      }
      return base_;
    }
    if (p_ == "Q2_K") return DType::kQ3_K;
    if (p_ == "Q3_K_M") return DType::kQ4_K;
    if (p_ == "Q3_K_L") return DType::kQ5_K;
    return base_;
  }
  DType base() const { return base_; }

 private:
  std::string p_;
  DType base_;
  int layers_, gqa_;
  bool eight_experts_;
};

// llama.cpp turns a row no block of the fallback divides either into F16.
void convert(Tensor& t, DType to) {
  if (!t.defined()) return;
  to = row_fallback(to, t.dim(1));
  if (t.dim(1) % dtype_block_elems(to) != 0) to = DType::kF16;
  if (t.dtype() != to) t = convert_tensor(t, to);
}

void convert_ffn(FfnWeights& f, DType base, DType down) {
  convert(f.gate, base);
  convert(f.up, base);
  convert(f.down, down);
}

}  // namespace

DType row_fallback(DType dtype, int64_t row_length) {
  if (row_length % dtype_block_elems(dtype) == 0) return dtype;
  switch (dtype) {
    case DType::kQ2_K:
    case DType::kQ3_K:
      return DType::kQ4_0;
    case DType::kQ4_K:
      return DType::kQ5_0;
    case DType::kQ5_K:
      return DType::kQ5_1;
    case DType::kQ6_K:
      return DType::kQ8_0;
    case DType::kIQ4_XS:
      return DType::kIQ4_NL;
    case DType::kFP8:  // not llama.cpp's: FP8 checkpoints leave such layers 16-bit
      return DType::kBF16;
    default:
      return dtype;  // a 32-value type: no smaller block to fall back to
  }
}

bool is_llama_cpp_preset(const std::string& name) { return find_preset(name) != nullptr; }

const char* llama_cpp_preset_names() {
  return "Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q2_K, Q3_K_S, Q3_K_M, Q3_K_L, Q4_K_S, Q4_K_M, Q5_K_S, "
         "Q5_K_M, Q6_K, IQ4_NL, IQ4_XS";
}

void apply_llama_cpp_preset(ModelWeights& w, const std::string& name) {
  const Preset* preset = find_preset(name);
  if (!preset) {
    throw std::invalid_argument(
        "'" + name + "' is not a llama.cpp preset (allowed: " + llama_cpp_preset_names() + ")");
  }
  const Mixture m(name, preset->base, w.config);
  const bool tied = !w.lm_head.defined();
  convert(w.embed, tied ? m.output(w.embed.dim(1)) : m.base());
  if (!tied) convert(w.lm_head, m.output(w.lm_head.dim(1)));
  const bool shared = !w.layers.empty() && w.layers[0].shared_expert.down.defined();
  const int downs = int(w.layers.size()) * (shared ? 2 : 1);
  for (size_t i = 0; i < w.layers.size(); ++i) {
    LayerWeights& l = w.layers[i];
    const int layer = int(i);
    convert(l.wq, m.base());
    convert(l.wk, m.attn_k());
    convert(l.wv, m.attn_v(layer));
    convert(l.wo, m.attn_output());
    convert_ffn(l.ffn, m.base(), m.ffn_down(layer, downs));
    for (FfnWeights& e : l.experts) convert_ffn(e, m.base(), m.ffn_down(layer, downs));
    convert_ffn(l.shared_expert, m.base(), m.ffn_down(layer, downs));
  }
}

}  // namespace infergate

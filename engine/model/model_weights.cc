#include "engine/model/model_weights.h"

#include <stdexcept>

#include "engine/model/llama_cpp_preset.h"
#include "kernels/cpu/convert.h"
#include "kernels/cpu/int4_group.h"

namespace infergate {

std::string hf_layer_prefix(int layer) { return "model.layers." + std::to_string(layer) + "."; }

size_t ModelWeights::nbytes() const {
  size_t total = 0;
  for_each_tensor([&](const std::string&, const Tensor& t) { total += t.nbytes(); });
  return total;
}

namespace {

// Calls fn on every projection matrix: attention, FFN, shared expert and experts (not the
// router, embeddings or LM head).
template <typename Fn>
void for_each_projection(std::vector<LayerWeights>& layers, Fn&& fn) {
  auto ffn = [&](FfnWeights& f) {
    for (Tensor* t : {&f.gate, &f.up, &f.down}) fn(*t);
  };
  for (LayerWeights& l : layers) {
    for (Tensor* t : {&l.wq, &l.wk, &l.wv, &l.wo}) fn(*t);
    ffn(l.ffn);
    ffn(l.shared_expert);
    for (FfnWeights& e : l.experts) ffn(e);
  }
}

}  // namespace

void ModelWeights::convert_matrices(DType dtype) {
  auto conv = [&](Tensor& t) {
    if (!t.defined() || t.shape().size() != 2) return;
    const DType to = row_fallback(dtype, t.dim(1));
    if (t.dtype() != to) t = convert_tensor(t, to);
  };
  conv(embed);
  conv(lm_head);
  for_each_projection(layers, conv);  // the router stays fp32
}

void ModelWeights::convert_matrices_int4(int64_t group) {
  for_each_projection(layers, [&](Tensor& t) {
    if (t.defined()) t = quantize_int4_grouped(t, int4_group_for(t.dim(1), group));
  });
  for (Tensor* t : {&embed, &lm_head}) {
    if (t->defined() && t->dtype() == DType::kF32) *t = convert_tensor(*t, DType::kF16);
  }
}

void ModelWeights::convert_matrices_fp8() {
  for_each_projection(layers, [&](Tensor& t) {
    if (!t.defined()) return;
    const DType to = row_fallback(DType::kFP8, t.dim(1));
    if (t.dtype() != to) t = convert_tensor(t, to);
  });
  for (Tensor* t : {&embed, &lm_head}) {
    if (t->defined() && t->dtype() == DType::kF32) *t = convert_tensor(*t, DType::kBF16);
  }
}

void ModelWeights::drop_projection_matrices() {
  auto drop_ffn = [](FfnWeights& f) { f = FfnWeights(); };
  for (LayerWeights& l : layers) {
    l.wq = l.wk = l.wv = l.wo = Tensor();
    drop_ffn(l.ffn);
    drop_ffn(l.shared_expert);
    for (FfnWeights& e : l.experts) drop_ffn(e);
  }
  lm_head = Tensor();
}

void ModelWeights::apply_weight_dtype(const std::string& weight_dtype) {
  if (weight_dtype == "auto") return;
  if (is_llama_cpp_preset(weight_dtype)) {
    apply_llama_cpp_preset(*this, weight_dtype);
    return;
  }
  const DType dtype = parse_dtype(weight_dtype);
  if (is_scaled_kv(dtype)) {
    throw std::invalid_argument(
        "weight dtype " + weight_dtype +
        " is a KV cache format (weights: auto, f32, f16, bf16, q8_0, q4_0, q4_1, q4_k, q5_0, "
        "q5_1, q2_k, q3_k, q5_k, q6_k, iq4_nl, iq4_xs, fp8, w8a8; fp8_e4m3 is the KV one)");
  }
  convert_matrices(dtype);
}

}  // namespace infergate

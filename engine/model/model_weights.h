// The weights of one model in memory, in Hugging Face's canonical layout: linear weights are
// [out_features, in_features] row-major, and Q/K rows are in HF's rotate-half RoPE order
// (GGUF loaders un-permute llama.cpp's interleaved order on read and permute on write).
// Norm weights and biases are always fp32; matrices keep the dtype they were loaded or
// converted to.
#pragma once

#include <string>
#include <vector>

#include "engine/model/model_config.h"
#include "engine/model/model_source.h"
#include "engine/tokenizer/vocabulary.h"
#include "kernels/tensor.h"

namespace infergate {

struct FfnWeights {
  Tensor gate;  // [intermediate, hidden]
  Tensor up;    // [intermediate, hidden]
  Tensor down;  // [hidden, intermediate]
};

struct LayerWeights {
  Tensor attn_norm;       // [hidden]
  Tensor wq;              // [num_heads * head_dim, hidden]
  Tensor wk;              // [num_kv_heads * head_dim, hidden]
  Tensor wv;              // [num_kv_heads * head_dim, hidden]
  Tensor wo;              // [hidden, num_heads * head_dim]
  Tensor bq, bk, bv;      // optional (Qwen2)
  Tensor q_norm, k_norm;  // optional (Qwen3): [head_dim], RMSNorm over each head before RoPE
  Tensor ffn_norm;        // [hidden]
  FfnWeights ffn;         // dense models
  Tensor router;          // MoE: [num_experts, hidden]
  std::vector<FfnWeights> experts;
  FfnWeights shared_expert;  // optional, added to every token's output
};

struct ModelWeights {
  ModelConfig config;
  Vocabulary vocab;
  Tensor embed;  // [vocab, hidden]
  std::vector<LayerWeights> layers;
  Tensor final_norm;  // [hidden]
  Tensor lm_head;     // [vocab, hidden]; undefined when tied to embed
  // Set by load_model(); empty kind for weights built in code (they cannot be spread over
  // ranks, which load their parts themselves).
  ModelSource source{"", "", 0, ""};

  const Tensor& output_weight() const { return lm_head.defined() ? lm_head : embed; }
  // Total bytes of all tensors (the memory ledger's "weights").
  size_t nbytes() const;
  // Calls fn(name, tensor) for every defined tensor, named as in Hugging Face checkpoints
  // ("model.layers.3.self_attn.q_proj.weight"). Exporters and the ledger use this one walk.
  template <typename Fn>
  void for_each_tensor(Fn&& fn) const;
  // Converts every matrix except the MoE router (not norms/biases) to `dtype`.
  void convert_matrices(DType dtype);
  // Group-wise INT4 (GPTQ/AWQ's shape, kernels/cpu/int4_group.h) for every projection matrix,
  // stored as Q4_1 blocks; rows that `group` does not divide take group 32. As AWQ
  // checkpoints keep them, embeddings and the LM head stay 16-bit (f32 becomes f16) and the
  // MoE router fp32.
  void convert_matrices_int4(int64_t group);
  // FP8 as Hugging Face FP8 checkpoints hold it: the projections as fp8 with one scale per
  // 128x128 block (rows that 128 does not divide stay bf16), the embeddings and LM head 16-bit
  // (f32 becomes bf16), the MoE router fp32.
  void convert_matrices_fp8();
  // Forgets the projection matrices and the untied LM head (kept: embeddings, norms, biases,
  // router), once a forward has packed its own copies, so their memory is not held twice.
  void drop_projection_matrices();
  // A weight_dtype setting: "auto" keeps the loaded dtypes, a llama.cpp preset name (Q4_K_M, ...)
  // converts to its mixture (llama_cpp_preset.h), any other name converts as above.
  void apply_weight_dtype(const std::string& weight_dtype);
};

// Hugging Face names of the tensors of layer `i` and the globals.
std::string hf_layer_prefix(int layer);

template <typename Fn>
void ModelWeights::for_each_tensor(Fn&& fn) const {
  auto visit = [&](const std::string& name, const Tensor& t) {
    if (t.defined()) fn(name, t);
  };
  auto visit_ffn = [&](const std::string& p, const FfnWeights& f) {
    visit(p + "gate_proj.weight", f.gate);
    visit(p + "up_proj.weight", f.up);
    visit(p + "down_proj.weight", f.down);
  };
  visit("model.embed_tokens.weight", embed);
  for (size_t i = 0; i < layers.size(); ++i) {
    const LayerWeights& l = layers[i];
    const std::string p = hf_layer_prefix(int(i));
    visit(p + "input_layernorm.weight", l.attn_norm);
    visit(p + "self_attn.q_proj.weight", l.wq);
    visit(p + "self_attn.k_proj.weight", l.wk);
    visit(p + "self_attn.v_proj.weight", l.wv);
    visit(p + "self_attn.q_proj.bias", l.bq);
    visit(p + "self_attn.k_proj.bias", l.bk);
    visit(p + "self_attn.v_proj.bias", l.bv);
    visit(p + "self_attn.q_norm.weight", l.q_norm);
    visit(p + "self_attn.k_norm.weight", l.k_norm);
    visit(p + "self_attn.o_proj.weight", l.wo);
    visit(p + "post_attention_layernorm.weight", l.ffn_norm);
    visit_ffn(p + "mlp.", l.ffn);
    visit(p + "block_sparse_moe.gate.weight", l.router);
    for (size_t e = 0; e < l.experts.size(); ++e) {
      const std::string ep = p + "block_sparse_moe.experts." + std::to_string(e) + ".";
      visit(ep + "w1.weight", l.experts[e].gate);
      visit(ep + "w3.weight", l.experts[e].up);
      visit(ep + "w2.weight", l.experts[e].down);
    }
    visit_ffn(p + "block_sparse_moe.shared_expert.", l.shared_expert);
  }
  visit("model.norm.weight", final_norm);
  visit("lm_head.weight", lm_head);
}

}  // namespace infergate

// Models and checks shared by the calibration tests (SmoothQuant, AWQ): the tiny preset with
// planted large activation channels, as trained LLMs have a few, and how far two models'
// logits are apart.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "engine/forward/reference_forward.h"
#include "engine/model/model_loader.h"
#include "kernels/cpu/convert.h"

namespace infergate::testing {

// The tiny preset with `attention` channels and `ffn` channels of every layer's attention and
// FFN inputs `factor` times the others (their norm weights scaled).
inline ModelWeights tiny_with_planted_channels(std::initializer_list<int> attention,
                                               std::initializer_list<int> ffn, float factor) {
  ModelSource s;
  s.kind = "synthetic";
  s.preset = "tiny";
  ModelWeights w = load_model(s);
  for (LayerWeights& l : w.layers) {
    l.attn_norm = convert_tensor(l.attn_norm, DType::kF32);  // owned copies to change
    l.ffn_norm = convert_tensor(l.ffn_norm, DType::kF32);
    for (int j : attention) l.attn_norm.mutable_data<float>()[j] *= factor;
    for (int j : ffn) l.ffn_norm.mutable_data<float>()[j] *= factor;
  }
  return w;
}

inline std::vector<int32_t> spread_tokens(int64_t n, int64_t salt = 13) {
  std::vector<int32_t> t;
  for (int64_t i = 0; i < n; ++i) t.push_back(int32_t((i * 7919 + salt) % 32000));
  return t;
}

// max |logit difference| of the reference forwards over the largest |logit| of `a`'s.
inline double relative_logit_difference(const ModelWeights& a, const ModelWeights& b,
                                        const std::vector<int32_t>& tokens) {
  const std::vector<float> x = reference_forward(a, tokens), y = reference_forward(b, tokens);
  float scale = 0, diff = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    scale = std::max(scale, std::fabs(x[i]));
    diff = std::max(diff, std::fabs(x[i] - y[i]));
  }
  return scale > 0 ? double(diff) / scale : double(diff);
}

}  // namespace infergate::testing

#include "engine/model/channel_scaling.h"

#include <algorithm>

#include "kernels/cpu/convert.h"

namespace infergate {

namespace {

void scale_columns(Tensor& m, const std::vector<double>& s) {
  m = convert_tensor(m, DType::kF32);
  float* p = m.mutable_data<float>();
  const int64_t k = m.dim(1);
  for (int64_t r = 0; r < m.dim(0); ++r) {
    for (int64_t j = 0; j < k; ++j) p[r * k + j] = float(p[r * k + j] * s[size_t(j)]);
  }
}

void divide_rows(Tensor& m, const std::vector<double>& s) {
  m = convert_tensor(m, DType::kF32);
  float* p = m.mutable_data<float>();
  const int64_t k = m.shape().size() == 2 ? m.dim(1) : 1;
  for (int64_t r = 0; r < m.dim(0); ++r) {
    for (int64_t j = 0; j < k; ++j) p[r * k + j] = float(p[r * k + j] / s[size_t(r)]);
  }
}

}  // namespace

std::vector<Tensor*> norm_consumers(LayerWeights& l, NormSite site) {
  if (site == NormSite::kAttention) return {&l.wq, &l.wk, &l.wv};
  std::vector<Tensor*> out = {&l.ffn.gate, &l.ffn.up, &l.shared_expert.gate, &l.shared_expert.up,
                              &l.router};
  for (FfnWeights& e : l.experts) {
    out.push_back(&e.gate);
    out.push_back(&e.up);
  }
  out.erase(std::remove_if(out.begin(), out.end(), [](Tensor* t) { return !t->defined(); }),
            out.end());
  return out;
}

void scale_norm_site(LayerWeights& l, NormSite site, const std::vector<double>& s) {
  divide_rows(site == NormSite::kAttention ? l.attn_norm : l.ffn_norm, s);
  for (Tensor* m : norm_consumers(l, site)) scale_columns(*m, s);
}

void scale_ffn_hidden(FfnWeights& f, const std::vector<double>& s) {
  divide_rows(f.up, s);
  scale_columns(f.down, s);
}

}  // namespace infergate

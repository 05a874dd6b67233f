#include "engine/model/smooth_quant.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "kernels/cpu/convert.h"

namespace infergate {

namespace {

// Smoothing factors stay in [kMinFactor, 1 / kMinFactor]: a channel never seen (range 0) or a
// zero weight column keeps factor 1 rather than 0 or infinity.
constexpr double kMinFactor = 1e-5;

enum class Site { kAttention, kFfn };

// The matrices one norm feeds: their input channels are the norm's outputs.
std::vector<Tensor*> consumers(LayerWeights& l, Site site) {
  if (site == Site::kAttention) return {&l.wq, &l.wk, &l.wv};
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

// max over rows of |W[r][j]|, for every column j, over all the matrices.
std::vector<double> column_ranges(const std::vector<Tensor*>& matrices, int64_t hidden) {
  std::vector<double> range(size_t(hidden), 0.0);
  for (const Tensor* m : matrices) {
    const float* p = m->data<float>();
    for (int64_t r = 0; r < m->dim(0); ++r) {
      for (int64_t j = 0; j < hidden; ++j) {
        range[size_t(j)] = std::max(range[size_t(j)], double(std::fabs(p[r * hidden + j])));
      }
    }
  }
  return range;
}

// Smooths one site; returns the activation ranges after it.
std::vector<float> smooth_site(LayerWeights& l, Site site, const std::vector<float>& x_range,
                               double alpha) {
  Tensor& norm = site == Site::kAttention ? l.attn_norm : l.ffn_norm;
  std::vector<Tensor*> matrices = consumers(l, site);
  const int64_t hidden = norm.dim(0);
  // Owned f32 copies: loaded tensors may be read-only mappings of the model file.
  norm = convert_tensor(norm, DType::kF32);
  for (Tensor* m : matrices) *m = convert_tensor(*m, DType::kF32);
  const std::vector<double> w_range = column_ranges(matrices, hidden);
  float* g = norm.mutable_data<float>();
  std::vector<float> smoothed(x_range);
  for (int64_t j = 0; j < hidden; ++j) {
    const double x = x_range[size_t(j)], w = w_range[size_t(j)];
    double s = x > 0 && w > 0 ? std::pow(x, alpha) / std::pow(w, 1.0 - alpha) : 1.0;
    s = std::clamp(s, kMinFactor, 1.0 / kMinFactor);
    g[j] = float(double(g[j]) / s);
    smoothed[size_t(j)] = float(x / s);
    for (Tensor* m : matrices) {
      float* p = m->mutable_data<float>();
      for (int64_t r = 0; r < m->dim(0); ++r) p[r * hidden + j] = float(p[r * hidden + j] * s);
    }
  }
  return smoothed;
}

void check_ranges(const std::vector<std::vector<float>>& ranges, const ModelWeights& w,
                  const char* site) {
  const bool ok = ranges.size() == w.layers.size() &&
                  std::all_of(ranges.begin(), ranges.end(), [&](const std::vector<float>& r) {
                    return int64_t(r.size()) == w.config.hidden_size;
                  });
  if (!ok) {
    throw std::invalid_argument(std::string("smooth_quant: ") + site + " ranges must be " +
                                std::to_string(w.layers.size()) + " layers of " +
                                std::to_string(w.config.hidden_size) + " channels");
  }
}

}  // namespace

ActivationRanges empty_activation_ranges(const ModelWeights& w) {
  const std::vector<float> zeros(size_t(w.config.hidden_size), 0.0f);
  return {std::vector(w.layers.size(), zeros), std::vector(w.layers.size(), zeros)};
}

void observe_range(std::vector<float>& range, const std::vector<double>& x) {
  for (size_t j = 0; j < range.size() && j < x.size(); ++j) {
    range[j] = std::max(range[j], float(std::fabs(x[j])));
  }
}

double outlier_ratio(const ActivationRanges& ranges) {
  double worst = 0;
  for (const auto* site : {&ranges.attention, &ranges.ffn}) {
    for (std::vector<float> r : *site) {
      if (r.empty()) continue;
      const float top = *std::max_element(r.begin(), r.end());
      std::nth_element(r.begin(), r.begin() + ptrdiff_t(r.size() / 2), r.end());
      const float median = r[r.size() / 2];
      if (median > 0) worst = std::max(worst, double(top) / median);
    }
  }
  return worst;
}

ActivationRanges smooth_quant(ModelWeights& w, const ActivationRanges& ranges, double alpha) {
  if (!(alpha >= 0.0 && alpha <= 1.0)) {
    throw std::invalid_argument("smooth_quant: alpha must be in [0, 1], got " +
                                std::to_string(alpha));
  }
  check_ranges(ranges.attention, w, "attention");
  check_ranges(ranges.ffn, w, "ffn");
  ActivationRanges after;
  for (size_t i = 0; i < w.layers.size(); ++i) {
    after.attention.push_back(
        smooth_site(w.layers[i], Site::kAttention, ranges.attention[i], alpha));
    after.ffn.push_back(smooth_site(w.layers[i], Site::kFfn, ranges.ffn[i], alpha));
  }
  return after;
}

}  // namespace infergate

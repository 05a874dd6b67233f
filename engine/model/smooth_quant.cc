#include "engine/model/smooth_quant.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "engine/model/channel_scaling.h"
#include "kernels/cpu/convert.h"

namespace infergate {

namespace {

// Smoothing factors stay in [kMinFactor, 1 / kMinFactor]: a channel never seen (range 0) or a
// zero weight column keeps factor 1 rather than 0 or infinity.
constexpr double kMinFactor = 1e-5;

// max over rows of |W[r][j]|, for every column j, over all the matrices.
std::vector<double> column_ranges(const std::vector<Tensor*>& matrices, int64_t hidden) {
  std::vector<double> range(size_t(hidden), 0.0);
  std::vector<float> row(size_t(hidden), 0.0f);
  for (const Tensor* m : matrices) {
    for (int64_t r = 0; r < m->dim(0); ++r) {
      to_f32(*m, r * hidden, hidden, row.data());
      for (int64_t j = 0; j < hidden; ++j) {
        range[size_t(j)] = std::max(range[size_t(j)], double(std::fabs(row[size_t(j)])));
      }
    }
  }
  return range;
}

// Smooths one site; returns the activation ranges after it.
std::vector<float> smooth_site(LayerWeights& l, NormSite site, const std::vector<float>& x_range,
                               double alpha) {
  const int64_t hidden = (site == NormSite::kAttention ? l.attn_norm : l.ffn_norm).dim(0);
  const std::vector<double> w_range = column_ranges(norm_consumers(l, site), hidden);
  std::vector<double> s(size_t(hidden), 1.0);
  std::vector<float> smoothed(x_range);
  for (size_t j = 0; j < s.size(); ++j) {
    const double x = x_range[j], w = w_range[j];
    if (x > 0 && w > 0) s[j] = std::pow(x, alpha) / std::pow(w, 1.0 - alpha);
    s[j] = std::clamp(s[j], kMinFactor, 1.0 / kMinFactor);
    smoothed[j] = float(x / s[j]);
  }
  scale_norm_site(l, site, s);
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
        smooth_site(w.layers[i], NormSite::kAttention, ranges.attention[i], alpha));
    after.ffn.push_back(smooth_site(w.layers[i], NormSite::kFfn, ranges.ffn[i], alpha));
  }
  return after;
}

}  // namespace infergate

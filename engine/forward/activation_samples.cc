#include "engine/forward/activation_samples.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "engine/forward/reference_forward.h"

namespace infergate {

ActivationSamples measure_activation_samples(const ModelWeights& w,
                                             const std::vector<int32_t>& tokens, int64_t max_rows) {
  if (max_rows < 1) throw std::invalid_argument("measure_activation_samples: max_rows < 1");
  const int64_t n = int64_t(tokens.size());
  const int64_t stride = std::max<int64_t>(1, (n + max_rows - 1) / max_rows);
  const size_t layers = w.layers.size();
  ActivationSamples s{std::vector<SiteSamples>(layers), std::vector<SiteSamples>(layers),
                      std::vector<SiteSamples>(layers)};
  // The forward reports sites in token order within a layer, so each site counts its tokens.
  std::vector<std::vector<int64_t>> seen(3, std::vector<int64_t>(layers, 0));
  reference_forward(w, tokens, [&](int layer, ActivationSite site, const std::vector<double>& x) {
    auto& all = site == ActivationSite::kAttentionInput ? s.attention
                : site == ActivationSite::kFfnInput     ? s.ffn
                                                        : s.down;
    SiteSamples& at = all[size_t(layer)];
    if (at.channels == 0) {
      at.channels = int64_t(x.size());
      at.mean_abs.assign(x.size(), 0.0);
    }
    for (size_t j = 0; j < x.size(); ++j) at.mean_abs[j] += std::fabs(x[j]) / double(n);
    if (seen[size_t(site)][size_t(layer)]++ % stride == 0)
      at.rows.insert(at.rows.end(), x.begin(), x.end());
  });
  return s;
}

}  // namespace infergate

#include "engine/forward/activation_ranges.h"

#include "engine/forward/reference_forward.h"

namespace infergate {

ActivationRanges measure_activation_ranges(const ModelWeights& w,
                                           const std::vector<int32_t>& tokens) {
  ActivationRanges ranges = empty_activation_ranges(w);
  reference_forward(w, tokens, [&](int layer, ActivationSite site, const std::vector<double>& x) {
    if (site == ActivationSite::kDownInput) return;  // not smoothed: no norm before down
    auto& at = site == ActivationSite::kAttentionInput ? ranges.attention : ranges.ffn;
    observe_range(at[size_t(layer)], x);
  });
  return ranges;
}

}  // namespace infergate

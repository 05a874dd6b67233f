// SmoothQuant (Xiao et al., 2023): per-token int8 activations lose their small channels to a few
// outlier channels, while per-channel int8 weights have room to spare. Dividing each input
// channel j of the activations by s_j and multiplying the matching weight column by s_j leaves
// every product unchanged and moves the outliers into the weights:
//   s_j = max|X_j|^alpha / max|W_j|^(1 - alpha)
// over calibration activations X and every matrix W the activation feeds. The division folds into
// the RMSNorm weight before the matrices, so the smoothed model is an ordinary model: it runs,
// exports and loads like any other. Smoothed here: the inputs of q/k/v (attention norm) and of
// the FFN's gate/up (and an MoE's router and experts; FFN norm). o_proj and down_proj have no
// norm before them and stay as they are.
#pragma once

#include <vector>

#include "engine/model/model_weights.h"

namespace infergate {

// Per layer, per input channel: the largest |activation| seen at each smoothed site.
struct ActivationRanges {
  std::vector<std::vector<float>> attention;  // [layers][hidden]
  std::vector<std::vector<float>> ffn;        // [layers][hidden]
};

// Ranges of zero, for `w`'s layers and hidden size, to be raised by observe_range().
ActivationRanges empty_activation_ranges(const ModelWeights& w);
// Raises range[j] to |x[j]| where larger.
void observe_range(std::vector<float>& range, const std::vector<double>& x);

// How far the largest channel's range stands above the median channel's, worst over layers and
// sites: what smoothing is meant to shrink.
double outlier_ratio(const ActivationRanges& ranges);

// Smooths `w` in place with migration strength alpha in [0, 1] (0.5 is the paper's default);
// matrices it touches become f32. Returns the activation ranges the smoothed model sees
// (range_j / s_j). Throws std::invalid_argument for ranges of the wrong shape or alpha outside
// [0, 1].
ActivationRanges smooth_quant(ModelWeights& w, const ActivationRanges& ranges, double alpha);

}  // namespace infergate

#include "engine/model/rope_scaling.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace infergate {

namespace {

// theta^(-2i/d) for each pair, in double.
std::vector<double> base_frequencies(int head_dim, double theta) {
  std::vector<double> inv;
  for (int i = 0; i < head_dim / 2; ++i) inv.push_back(std::pow(theta, -2.0 * i / head_dim));
  return inv;
}

// Llama 3.1: long wavelengths slowed by `factor`, short ones kept, a smooth blend between.
double llama3_frequency(double inv, const RopeScaling& s) {
  const double old_context = s.original_max_position_embeddings;
  const double wavelen = 2 * std::numbers::pi / inv;
  if (wavelen < old_context / s.high_freq_factor) return inv;
  if (wavelen > old_context / s.low_freq_factor) return inv / s.factor;
  const double smooth =
      (old_context / wavelen - s.low_freq_factor) / (s.high_freq_factor - s.low_freq_factor);
  return (1 - smooth) * inv / s.factor + smooth * inv;
}

// The pair index where `rotations` full turns fit in the original context (YaRN's correction).
double yarn_correction_dim(double rotations, int head_dim, double theta, int context) {
  return head_dim * std::log(context / (rotations * 2 * std::numbers::pi)) / (2 * std::log(theta));
}

// YaRN: pairs below the correction range keep their frequency (extrapolate), pairs above it are
// interpolated by `factor`, with a linear ramp between.
void apply_yarn(std::vector<double>& inv, const ModelConfig& c) {
  const RopeScaling& s = c.rope_scaling;
  const int context = s.original_max_position_embeddings > 0 ? s.original_max_position_embeddings
                                                             : c.max_position_embeddings;
  const int d = c.head_dim;
  const double low =
      std::max(0.0, std::floor(yarn_correction_dim(s.beta_fast, d, c.rope_theta, context)));
  const double high = std::min(
      double(d - 1), std::ceil(yarn_correction_dim(s.beta_slow, d, c.rope_theta, context)));
  const double span = std::max(0.001, high - low);
  for (size_t i = 0; i < inv.size(); ++i) {
    const double extrapolate = 1 - std::clamp((double(i) - low) / span, 0.0, 1.0);
    inv[i] = inv[i] / s.factor * (1 - extrapolate) + inv[i] * extrapolate;
  }
}

}  // namespace

double yarn_attention_factor(const RopeScaling& s) {
  return s.attention_factor > 0 ? s.attention_factor : 0.1 * std::log(s.factor) + 1;
}

double dynamic_ntk_base(const ModelConfig& c) {
  const double f = c.rope_scaling.factor, d = c.head_dim;
  return c.rope_theta * std::pow(f * f - f + 1, d / (d - 2));
}

RopeFrequencies rope_frequencies(const ModelConfig& c) {
  const RopeScaling& s = c.rope_scaling;
  if (s.type == "none" && s.freq_factors.empty()) {
    return RopeFrequencies::plain(c.head_dim, c.rope_theta);  // bit for bit as before scaling
  }
  const double theta = s.type == "dynamic" ? dynamic_ntk_base(c) : double(c.rope_theta);
  std::vector<double> inv = base_frequencies(c.head_dim, theta);
  RopeFrequencies f;
  if (s.type == "linear") {
    for (double& v : inv) v /= s.factor;
  } else if (s.type == "llama3") {
    for (double& v : inv) v = llama3_frequency(v, s);
  } else if (s.type == "yarn") {
    apply_yarn(inv, c);
    f.scale = float(yarn_attention_factor(s));
  }
  for (size_t i = 0; i < s.freq_factors.size(); ++i) inv[i] /= s.freq_factors[i];
  for (double v : inv) f.inv_freq.push_back(float(v));
  return f;
}

std::vector<float> llama3_frequency_factors(const ModelConfig& c) {
  std::vector<float> factors;
  for (double inv : base_frequencies(c.head_dim, c.rope_theta)) {
    factors.push_back(float(inv / llama3_frequency(inv, c.rope_scaling)));
  }
  return factors;
}

}  // namespace infergate

// SmoothQuant (engine/model/smooth_quant.h) against the plain model: the smoothed model computes
// the same function, and where activations have an outlier channel its W8A8 form is closer to
// the f32 model than W8A8 without smoothing.
#include "engine/model/smooth_quant.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "bench/quality/evaluate_quality.h"
#include "engine/forward/activation_ranges.h"
#include "planted_channels.h"

namespace infergate {
namespace {

// One activation channel 30x the others at every layer's attention and FFN input.
ModelWeights outlier_model() { return testing::tiny_with_planted_channels({3}, {7}, 30.0f); }

std::vector<int32_t> some_tokens(int64_t n) { return testing::spread_tokens(n); }

TEST_CASE("SmoothQuant keeps the model's function and shrinks its activation outliers") {
  const ModelWeights plain = outlier_model();
  ModelWeights smoothed = outlier_model();
  const std::vector<int32_t> tokens = some_tokens(16);
  const ActivationRanges before = measure_activation_ranges(plain, tokens);
  const ActivationRanges after = smooth_quant(smoothed, before, 0.5);
  INFO("largest / median channel range " << outlier_ratio(before) << " -> "
                                         << outlier_ratio(after));
  CHECK(outlier_ratio(before) > 20.0);
  CHECK(outlier_ratio(after) < outlier_ratio(before) / 4);
  // The smoothed model's own activations are the ranges smooth_quant predicted.
  const ActivationRanges seen = measure_activation_ranges(smoothed, tokens);
  CHECK(seen.attention[0][3] == Approx(after.attention[0][3]).epsilon(1e-4));
  // f32 rounding of the rescaled weights only
  CHECK(testing::relative_logit_difference(plain, smoothed, tokens) <= 1e-4);
}

TEST_CASE("with an outlier channel SmoothQuant brings w8a8 closer to f32") {
  ThreadPool pool(2);
  const ModelWeights f32 = outlier_model();
  ModelWeights plain = outlier_model(), smoothed = outlier_model();
  const std::vector<int32_t> tokens = some_tokens(128);
  smooth_quant(smoothed, measure_activation_ranges(smoothed, some_tokens(32)), 0.5);
  plain.apply_weight_dtype("w8a8");
  smoothed.apply_weight_dtype("w8a8");
  const QualityOptions o{.context = 64, .chunks = 0};
  const QualitySummary without = evaluate_quality(f32, plain, tokens, o, pool);
  const QualitySummary with = evaluate_quality(f32, smoothed, tokens, o, pool);
  INFO("KL mean without smoothing " << without.kl_divergence.mean << ", with "
                                    << with.kl_divergence.mean);
  CHECK(with.kl_divergence.mean < 0.5 * without.kl_divergence.mean);
}

TEST_CASE("SmoothQuant refuses ranges of the wrong shape and alpha outside [0, 1]") {
  ModelWeights w = outlier_model();
  ActivationRanges r = empty_activation_ranges(w);
  CHECK_THROWS_WITH(smooth_quant(w, r, 1.5), Catch::Contains("alpha must be in [0, 1]"));
  r.ffn.pop_back();
  CHECK_THROWS_WITH(smooth_quant(w, r, 0.5), Catch::Contains("ffn ranges must be 6 layers of 288"));
}

}  // namespace
}  // namespace infergate

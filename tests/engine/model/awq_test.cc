// AWQ's scale search (engine/model/awq.h) against plain group-wise INT4: the scaled model
// computes the same function, the search never loses on its calibration rows, and where a few
// activation channels are large the INT4 model it leads to is closer to the f32 model.
#include "engine/model/awq.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "bench/quality/evaluate_quality.h"
#include "engine/forward/activation_samples.h"
#include "planted_channels.h"

namespace infergate {
namespace {

// Three activation channels 20x the others at every layer's attention and FFN input.
ModelWeights salient_model() {
  return testing::tiny_with_planted_channels({3, 40, 200}, {10, 47, 207}, 20.0f);
}

std::vector<int32_t> some_tokens(int64_t n, int64_t salt = 13) {
  return testing::spread_tokens(n, salt);
}

TEST_CASE("AWQ scales keep the model's function and never lose on the calibration rows") {
  const ModelWeights plain = salient_model();
  ModelWeights scaled = salient_model();
  const std::vector<int32_t> tokens = some_tokens(24);
  const ActivationSamples x = measure_activation_samples(plain, tokens, 8);
  REQUIRE(x.attention[0].num_rows() == 8);  // every 3rd of 24 tokens
  REQUIRE(x.down[0].channels == 768);
  const std::vector<AwqSiteChoice> choices = awq_search(scaled, x, 128);
  REQUIRE(choices.size() == 18);  // 6 layers x qkv, gate_up, down
  int scaled_sites = 0;
  for (const AwqSiteChoice& c : choices) {
    INFO("layer " << c.layer << " " << c.site << " alpha " << c.alpha);
    CHECK(c.chosen_loss <= c.plain_loss);
    scaled_sites += c.alpha > 0;
  }
  CHECK(scaled_sites > 0);
  // f32 rounding of the rescaled weights only
  CHECK(testing::relative_logit_difference(plain, scaled, tokens) <= 1e-4);
}

TEST_CASE("with salient channels AWQ brings group-wise INT4 closer to f32") {
  ThreadPool pool(2);
  const ModelWeights f32 = salient_model();
  ModelWeights plain = salient_model(), awq = salient_model();
  awq_search(awq, measure_activation_samples(awq, some_tokens(32), 32), 32);
  plain.convert_matrices_int4(32);
  awq.convert_matrices_int4(32);
  const std::vector<int32_t> held_out = some_tokens(128, 5);  // not the calibration tokens
  const QualityOptions o{.context = 64, .chunks = 0};
  const QualitySummary without = evaluate_quality(f32, plain, held_out, o, pool);
  const QualitySummary with = evaluate_quality(f32, awq, held_out, o, pool);
  INFO("KL mean without AWQ " << without.kl_divergence.mean << ", with "
                              << with.kl_divergence.mean);
  CHECK(with.kl_divergence.mean < 0.8 * without.kl_divergence.mean);
}

TEST_CASE("AWQ refuses samples of the wrong shape and a group that is not whole blocks") {
  ModelWeights w = salient_model();
  ActivationSamples x = measure_activation_samples(w, some_tokens(4), 4);
  CHECK_THROWS_WITH(awq_search(w, x, 48), Catch::Contains("group 48 is not a positive multiple"));
  ActivationSamples no_rows = x;
  no_rows.ffn[2].rows.clear();
  CHECK_THROWS_WITH(awq_search(w, no_rows, 32),
                    Catch::Contains("layer 2 ffn samples must have 288 channels"));
  x.down.pop_back();
  CHECK_THROWS_WITH(awq_search(w, x, 32), Catch::Contains("down samples for 5 layers"));
}

}  // namespace
}  // namespace infergate

#include <catch2/catch.hpp>
#include <cmath>

#include "engine/forward/reference_forward.h"
#include "engine/model/synthetic_model.h"

using namespace infergate;

TEST_CASE("synthetic tiny model gives finite, non-flat logits", "[model]") {
  ModelConfig c = preset_config("tiny");
  c.num_layers = 2;
  c.vocab_size = 512;
  const ModelWeights w = make_synthetic_model(c, 7);
  const std::vector<float> logits = reference_forward(w, {1, 42, 300, 7});
  REQUIRE(logits.size() == 4u * 512u);
  double mx = -1e30, mn = 1e30;
  for (float v : logits) {
    REQUIRE(std::isfinite(v));
    mx = std::max(mx, double(v));
    mn = std::min(mn, double(v));
  }
  REQUIRE(mx - mn > 5.0);
}

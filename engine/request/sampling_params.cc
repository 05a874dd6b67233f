#include "engine/request/sampling_params.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace infergate {

void SamplingParams::validate() const {
  if (max_tokens <= 0) {
    throw std::invalid_argument("max_tokens must be >= 1, got " + std::to_string(max_tokens));
  }
  if (!(temperature >= 0.0f) || !std::isfinite(temperature)) {
    throw std::invalid_argument("temperature must be a finite number >= 0, got " +
                                std::to_string(temperature));
  }
  if (top_k < 0)
    throw std::invalid_argument("top_k must be >= 0 (0 disables), got " + std::to_string(top_k));
  if (!(top_p > 0.0f && top_p <= 1.0f)) {
    throw std::invalid_argument("top_p must be in (0, 1], got " + std::to_string(top_p));
  }
}

}  // namespace infergate

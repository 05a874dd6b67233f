// The served models a request parser is fuzzed against: each input is parsed for every shape,
// so one input covers a text-capable model and token-id-only ones, a roomy context and
// contexts so small that most requests cannot fit.
#pragma once

#include <vector>

#include "server/openai/completion_request.h"

namespace infergate::fuzz {

const std::vector<ServedModel>& served_model_shapes();

}  // namespace infergate::fuzz

// config.json's rope_scaling (transformers 4) or rope_parameters (transformers 5) <-> RopeScaling.
// Every key a type does not use is refused by name: an unread key would silently change what
// the model computes.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "engine/model/model_config.h"

namespace infergate {

// Reads the object at `key` ("rope_scaling" or "rope_parameters") into c.rope_scaling, and, for
// rope_parameters, its rope_theta into c.rope_theta. Throws ModelLoadError naming `file`, the
// key and the rule ("rope_scaling.low_freq_factor is missing (rope_type llama3 needs ...)").
void read_hf_rope_scaling(const nlohmann::json& value, const std::string& key,
                          const std::string& file, ModelConfig& c);

// The rope_scaling object of `s` (type none: null). Throws std::invalid_argument for factors
// read from a GGUF's rope_freqs, which config.json cannot express.
nlohmann::json hf_rope_scaling_json(const RopeScaling& s);

}  // namespace infergate

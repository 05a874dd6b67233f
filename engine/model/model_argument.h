// Turns a model named in one string (--model, speculative.draft_model) into a ModelSource: a
// trained model's name (engine/model/trained_models.h), a preset name, a .gguf file, a safetensors
// directory, or a Hugging Face config.json (synthetic weights in the shape it describes: real
// architectures scaled down, with no weights to fetch).
#pragma once

#include <cstdint>
#include <string>

#include "engine/model/model_source.h"

namespace infergate {

// --help's words for a --model argument, the same in every command.
inline constexpr const char* kModelArgumentHelp =
    "trained or trained-draft (this repository's trained models, models/trained), a preset (tiny, "
    "small, moe-tiny), a .gguf file, a safetensors directory, or a config.json (synthetic weights "
    "in its shape)";

// Throws std::invalid_argument naming the option, the argument and what it may be.
ModelSource parse_model_argument(const std::string& arg, uint64_t seed,
                                 const std::string& option = "--model");

}  // namespace infergate

// The models trained in this repository (models/trained/, made by models/train/): `trained` (the
// target) and `trained-draft` name them wherever a model is asked for, from any directory. They
// load as any downloaded checkpoint does: safetensors, config.json, tokenizer.json and its
// template.
#pragma once

#include <optional>
#include <string>

namespace infergate {

// "trained, trained-draft": for error messages and --help.
const char* trained_model_names();

// The directory a trained model's name stands for, nullopt for any other name. The folder is
// $INFERGATE_TRAINED_MODELS when set, else this source tree's models/trained. Throws
// std::invalid_argument when the directory is not there (naming it and the variable).
std::optional<std::string> trained_model_dir(const std::string& name);

}  // namespace infergate

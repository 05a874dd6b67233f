// A model as the simulator needs it: its shape, never its weights (a 70B model is simulated on
// a laptop). From sim/models/*.json (Hugging Face config.json files), a synthetic preset, or a
// config.json file or the directory of a checkpoint holding one.
#pragma once

#include <string>

#include "engine/model/model_config.h"
#include "kernels/tensor.h"

namespace infergate {

struct ModelShape {
  ModelConfig config;
  DType native_dtype = DType::kBF16;  // the checkpoint's torch_dtype (presets: f32)
  std::string source;                 // where it came from, for the manifest
};

// Throws std::invalid_argument (a SimFileError or ModelLoadError) naming the file and field, or
// listing the built-in names.
ModelShape load_model_shape(const std::string& name_or_path);

}  // namespace infergate

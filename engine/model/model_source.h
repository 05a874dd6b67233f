// Where a model's weights come from: a built-in synthetic preset or a file. Kept with the
// weights load_model() returns, so other ranks can load the same model themselves.
#pragma once

#include <cstdint>
#include <string>

namespace infergate {

struct ModelSource {               // exactly one kind
  std::string kind = "synthetic";  // "synthetic" | "config" | "gguf" | "safetensors"
  std::string preset = "tiny";     // synthetic: preset name (preset_config)
  uint64_t seed = 0;               // synthetic and config
  std::string path;                // gguf file, safetensors directory or config: config.json
};

}  // namespace infergate

#include "engine/model/model_argument.h"

#include <filesystem>
#include <stdexcept>

#include "common/io/input_file.h"
#include "engine/model/model_config.h"
#include "engine/model/trained_models.h"

namespace infergate {

ModelSource parse_model_argument(const std::string& arg, uint64_t seed, const std::string& option) {
  namespace fs = std::filesystem;
  ModelSource s;
  s.seed = seed;
  if (arg == "tiny" || arg == "small" || arg == "moe-tiny") {
    s.kind = "synthetic";
    s.preset = arg;
  } else if (const auto trained = trained_model_dir(arg)) {
    s.kind = "safetensors";
    s.path = *trained;
  } else if (fs::is_directory(arg)) {
    s.kind = "safetensors";
    s.path = arg;
  } else if (arg.ends_with(".gguf")) {
    s.kind = "gguf";
    s.path = arg;
  } else if (arg.ends_with(".json") && fs::is_regular_file(arg)) {
    s.kind = "config";  // synthetic weights in the shape a Hugging Face config.json describes
    s.path = arg;
  } else {
    std::error_code ec;
    const std::string what = !fs::exists(arg, ec)             ? "no such file or directory, and "
                             : !non_regular_kind(arg).empty() ? "is " + non_regular_kind(arg) + ", "
                                                              : "";
    throw std::invalid_argument(option + " '" + arg + "': " + what + "not a preset (" +
                                preset_names() + "), a trained model (" + trained_model_names() +
                                "), a .gguf file, a safetensors directory or a config.json");
  }
  return s;
}

}  // namespace infergate

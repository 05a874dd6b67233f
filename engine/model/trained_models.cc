#include "engine/model/trained_models.h"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace infergate {

const char* trained_model_names() { return "trained, trained-draft"; }

std::optional<std::string> trained_model_dir(const std::string& name) {
  const char* sub = name == "trained" ? "target" : name == "trained-draft" ? "draft" : nullptr;
  if (sub == nullptr) return std::nullopt;
  const char* env = std::getenv("INFERGATE_TRAINED_MODELS");
  // The source tree's copy, so the binary finds it from any working directory (CMakeLists.txt).
  const std::filesystem::path folder = env != nullptr && *env != '\0'
                                           ? std::filesystem::path(env)
                                           : std::filesystem::path(INFERGATE_TRAINED_MODELS_DIR);
  const std::filesystem::path dir = folder / sub;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(dir / "config.json", ec)) {
    throw std::invalid_argument("model '" + name + "': no " + (dir / "config.json").string() +
                                " (set INFERGATE_TRAINED_MODELS to the folder holding target/ "
                                "and draft/, models/trained in the source tree)");
  }
  return dir.string();
}

}  // namespace infergate

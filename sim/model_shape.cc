#include "sim/model_shape.h"

#include <filesystem>

#include "common/io/input_file.h"
#include "common/io/json_text.h"
#include "engine/model/hf_config.h"
#include "sim/sim_catalog.h"
#include "sim/sim_file_reader.h"

namespace infergate {

namespace {

DType torch_dtype(const std::string& text) {
  const nlohmann::json j = parse_json_text(text);
  const std::string t = j.value("torch_dtype", std::string("bfloat16"));
  if (t == "float16") return DType::kF16;
  if (t == "float32") return DType::kF32;
  return DType::kBF16;
}

ModelShape from_text(const std::string& text, const std::string& file) {
  ModelShape s;
  s.config = parse_hf_config(text, file);
  s.config.validate();
  s.native_dtype = torch_dtype(text);
  s.source = file;
  return s;
}

bool is_preset(const std::string& name) {
  try {
    preset_config(name);
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

}  // namespace

ModelShape load_model_shape(const std::string& name_or_path) {
  if (const char* text = sim_catalog_text("models", name_or_path)) {
    return from_text(text, "sim/models/" + name_or_path + ".json");
  }
  if (is_preset(name_or_path)) {
    ModelShape s;
    s.config = preset_config(name_or_path);
    s.native_dtype = DType::kF32;  // synthetic weights are built in fp32
    s.source = "preset " + name_or_path;
    return s;
  }
  std::filesystem::path path(name_or_path);
  if (name_or_path.find('/') == std::string::npos && path.extension() != ".json") {
    throw SimFileError("model '" + name_or_path +
                       "': no such built-in model shape (built in: " + sim_catalog_list("models") +
                       "; synthetic presets: " + preset_names() + "; or a config.json path)");
  }
  if (std::filesystem::is_directory(path)) path /= "config.json";
  try {
    return from_text(read_regular_file(path.string(), kMaxModelTextFileBytes), path.string());
  } catch (const InputFileError& e) {
    throw SimFileError(e.what());
  } catch (const JsonTextError& e) {
    throw SimFileError(path.string() + ": not JSON " + e.what());
  }
}

}  // namespace infergate

#include "engine/model/model_loader.h"

#include <filesystem>
#include <stdexcept>

#include "common/io/json_file.h"
#include "engine/model/gguf_reader.h"
#include "engine/model/gguf_writer.h"
#include "engine/model/hf_config.h"
#include "engine/model/mapped_file.h"
#include "engine/model/safetensors_reader.h"
#include "engine/model/safetensors_writer.h"
#include "engine/model/synthetic_model.h"

namespace infergate {

namespace {

ModelWeights load_synthetic(const ModelSource& source) {
  try {
    return make_synthetic_model(preset_config(source.preset), source.seed);
  } catch (const std::invalid_argument& e) {
    throw ModelLoadError("synthetic preset '" + source.preset + "'", e.what());
  }
}

// Synthetic weights shaped by a config.json (hf_config.h reads and checks it).
ModelWeights load_config_shaped(const ModelSource& source) {
  ModelConfig c = parse_hf_config(read_text_file(source.path), source.path);
  if (c.name == ModelConfig().name) c.name = std::filesystem::path(source.path).stem().string();
  return make_synthetic_model(c, source.seed);
}

void require_path(const ModelSource& source) {
  if (source.path.empty()) {
    throw ModelLoadError("model source", "kind '" + source.kind + "' needs a path");
  }
}

ModelWeights read_source(const ModelSource& source) {
  if (source.kind == "synthetic") return load_synthetic(source);
  if (source.kind == "config") {
    require_path(source);
    return load_config_shaped(source);
  }
  if (source.kind == "gguf") {
    require_path(source);
    return read_gguf(source.path);
  }
  if (source.kind == "safetensors") {
    require_path(source);
    return read_safetensors(source.path);
  }
  throw ModelLoadError("model source", "unknown kind '" + source.kind +
                                           "' (allowed: synthetic, config, gguf, safetensors)");
}

}  // namespace

ModelWeights load_model(const ModelSource& source) {
  ModelWeights w = read_source(source);
  w.source = source;
  return w;
}

void check_export_path(const std::string& format, const std::string& path) {
  if (format == "gguf") {
    check_writable(path);
  } else if (format == "safetensors") {
    for (const char* file : {"model.safetensors", "config.json"}) {
      check_writable((std::filesystem::path(path) / file).string());
    }
  } else {
    throw std::invalid_argument("unknown export format '" + format +
                                "' (allowed: gguf, safetensors)");
  }
}

void export_model(const ModelWeights& weights, const std::string& format, const std::string& path) {
  if (format == "gguf") {
    write_gguf(weights, path);
  } else if (format == "safetensors") {
    write_safetensors(weights, path);
  } else {
    throw std::invalid_argument("unknown export format '" + format +
                                "' (allowed: gguf, safetensors)");
  }
}

}  // namespace infergate

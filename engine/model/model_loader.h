// The one entry point for getting weights into the engine and out again, whatever the format:
// the built-in synthetic models, llama.cpp GGUF files and Hugging Face safetensors directories.
// See docs/model-formats.md for what each format supports.
#pragma once

#include <cstdint>
#include <string>

#include "engine/model/model_load_error.h"
#include "engine/model/model_source.h"
#include "engine/model/model_weights.h"

namespace infergate {

// Throws ModelLoadError naming the file (or preset) and what is wrong with it. The weights
// remember `source`.
ModelWeights load_model(const ModelSource& source);

// Writes `weights` as `format` ("gguf": a file; "safetensors": a directory) at `path`,
// atomically. Throws std::invalid_argument for an unknown format or weights the format cannot
// hold, std::runtime_error naming the file on I/O errors.
void export_model(const ModelWeights& weights, const std::string& format, const std::string& path);
// Checks before loading anything that export_model(..., format, path) will be able to write its
// files (a safetensors directory is created); throws like export_model.
void check_export_path(const std::string& format, const std::string& path);

}  // namespace infergate

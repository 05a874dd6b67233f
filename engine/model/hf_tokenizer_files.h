// The tokenizer files of a Hugging Face directory (tokenizer.json, tokenizer_config.json,
// chat_template.jinja), which a safetensors directory written from it needs beside its weights
// for text to mean the same (the writer writes weights and config.json only).
#pragma once

#include <string>

#include "engine/model/model_source.h"

namespace infergate {

// Copies `source`'s tokenizer files into `out_dir`, replacing older copies, when `source` is a
// safetensors directory that has them; returns how many were copied. Throws
// std::filesystem::filesystem_error naming the file on I/O errors.
int copy_hf_tokenizer_files(const ModelSource& source, const std::string& out_dir);

}  // namespace infergate

// The tokenizer files a safetensors directory written from a model gets beside its weights, so
// that text means the same in it (the writer writes weights and config.json only): a Hugging
// Face directory's own (tokenizer.json, tokenizer_config.json, chat_template.jinja), or a GGUF's
// byte-level BPE vocabulary converted (hf_tokenizer_of_gguf.h). Gathered before the weights are
// converted, so that an unreadable file stops an export before it writes anything.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "engine/model/model_source.h"

namespace infergate {

struct TokenizerFilesToWrite {
  std::vector<std::pair<std::string, std::string>> files;  // name, content
  std::string from_dir;     // the Hugging Face directory they come from ("": converted)
  std::string not_written;  // why a GGUF's vocabulary gets none ("" otherwise)
};

// What `source` gives: a safetensors directory's files, a GGUF's vocabulary as tokenizer.json
// and tokenizer_config.json, nothing for synthetic models. Throws InputFileError naming a file
// that cannot be read, ModelLoadError for a GGUF that is not one.
TokenizerFilesToWrite tokenizer_files_for(const ModelSource& source);

// Writes `files` into `out_dir` atomically, replacing older copies (nothing when `out_dir` is the
// directory they come from); returns how many were written.
int write_tokenizer_files(const TokenizerFilesToWrite& files, const std::string& out_dir);

}  // namespace infergate

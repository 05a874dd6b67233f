#include "engine/model/hf_tokenizer_files.h"

#include <filesystem>

namespace infergate {

int copy_hf_tokenizer_files(const ModelSource& source, const std::string& out_dir) {
  namespace fs = std::filesystem;
  if (source.kind != "safetensors") return 0;
  if (fs::equivalent(source.path, out_dir)) return 0;  // written in place: they are there
  int copied = 0;
  for (const char* name : {"tokenizer.json", "tokenizer_config.json", "chat_template.jinja"}) {
    const fs::path from = fs::path(source.path) / name;
    if (!fs::is_regular_file(from)) continue;
    fs::copy_file(from, fs::path(out_dir) / name, fs::copy_options::overwrite_existing);
    ++copied;
  }
  return copied;
}

}  // namespace infergate

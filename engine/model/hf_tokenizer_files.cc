#include "engine/model/hf_tokenizer_files.h"

#include <filesystem>
#include <stdexcept>

#include "common/io/input_file.h"
#include "common/io/json_file.h"
#include "engine/model/gguf_tokenizer_data.h"
#include "engine/model/hf_tokenizer_of_gguf.h"

namespace infergate {

namespace {

TokenizerFilesToWrite copies_of(const std::string& dir) {
  namespace fs = std::filesystem;
  TokenizerFilesToWrite out;
  out.from_dir = dir;
  for (const char* name : {"tokenizer.json", "tokenizer_config.json", "chat_template.jinja"}) {
    const fs::path from = fs::path(dir) / name;
    if (fs::is_regular_file(from))
      out.files.emplace_back(name, read_regular_file(from.string(), kMaxJsonFileBytes));
  }
  return out;
}

TokenizerFilesToWrite converted(const std::string& gguf_path) {
  TokenizerFilesToWrite out;
  try {
    const HfTokenizerDocuments docs = hf_tokenizer_of_gguf(read_gguf_tokenizer(gguf_path));
    out.files.emplace_back("tokenizer.json", docs.tokenizer.dump(1) + "\n");
    out.files.emplace_back("tokenizer_config.json", docs.config.dump(1) + "\n");
  } catch (const std::invalid_argument& e) {
    out.not_written = gguf_path + ": " + e.what();
  }
  return out;
}

}  // namespace

TokenizerFilesToWrite tokenizer_files_for(const ModelSource& source) {
  if (source.kind == "safetensors") return copies_of(source.path);
  if (source.kind == "gguf") return converted(source.path);
  return {};
}

int write_tokenizer_files(const TokenizerFilesToWrite& files, const std::string& out_dir) {
  namespace fs = std::filesystem;
  if (!files.from_dir.empty() && fs::exists(out_dir) && fs::equivalent(files.from_dir, out_dir)) {
    return 0;  // written in place: they are there
  }
  for (const auto& [name, content] : files.files) {
    write_text_atomically(content, (fs::path(out_dir) / name).string());
  }
  return static_cast<int>(files.files.size());
}

}  // namespace infergate

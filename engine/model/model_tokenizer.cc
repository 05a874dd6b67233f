#include "engine/model/model_tokenizer.h"

#include <filesystem>
#include <map>
#include <stdexcept>

#include "engine/model/gguf_tokenizer_data.h"
#include "engine/tokenizer/byte_tokenizer.h"
#include "engine/tokenizer/hf_tokenizer_json.h"

namespace infergate {

namespace {

std::string algorithm_of(const std::string& model) {
  return model == "gpt2" ? "byte-level BPE" : "SentencePiece";
}

ModelTokenizer none(const std::string& why) {
  ModelTokenizer t;
  t.description = "none (token ids only): " + why;
  return t;
}

ModelTokenizer byte_tokenizer(const Vocabulary& vocab, const std::string& what) {
  ModelTokenizer t;
  t.tokenizer = std::make_unique<ByteTokenizer>(vocab);
  t.description = "byte (" + what + ")";
  return t;
}

// The model's template, or ChatML (saying why) when it has none or it does not parse.
void set_chat_template(ModelTokenizer& t, const std::string& source, const std::string& tool_use,
                       std::map<std::string, std::string> specials, const std::string& model) {
  if (source.empty()) return;
  try {
    t.chat = ChatTemplate(source, tool_use, std::move(specials), model);
    t.chat_description = "the model's own (" + model + ")";
  } catch (const jinja::TemplateError& e) {
    t.chat_description = std::string("ChatML (the model's does not parse: ") + e.what() + ")";
  }
}

ModelTokenizer gguf_tokenizer(const std::string& path) {
  const GgufTokenizerData data = read_gguf_tokenizer(path);
  ModelTokenizer t;
  try {
    t.tokenizer = make_tokenizer(data.vocab, data.pre, data.add_space_prefix);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path + ": " + e.what());
  }
  t.add_bos = data.add_bos;
  const std::string pre = data.vocab.model == "gpt2"
                              ? ", pre-tokenizer " + (data.pre.empty() ? "default" : data.pre)
                              : "";
  t.description = "gguf " + data.vocab.model + " (" + algorithm_of(data.vocab.model) + pre + "), " +
                  std::to_string(data.vocab.size()) + " tokens";
  std::map<std::string, std::string> specials;
  for (const auto& [key, id] : {std::pair<const char*, int32_t>{"bos_token", data.vocab.bos_id},
                                {"eos_token", data.vocab.eos_id}}) {
    if (id >= 0 && static_cast<size_t>(id) < data.vocab.size())
      specials[key] = data.vocab.tokens[id];
  }
  set_chat_template(t, data.chat_template, "", std::move(specials), path);
  return t;
}

// A Hugging Face directory's tokenizer.json; encode(text, true) adds what its post-processor
// (or tokenizer_config.json's add_bos_token) adds.
ModelTokenizer hf_tokenizer(const std::string& dir) {
  HfTokenizerFiles files = load_hf_tokenizer(dir);
  ModelTokenizer t;
  t.description = "tokenizer.json (BPE" +
                  std::string(files.tokenizer->prefix_ids().empty() ? "" : ", adds BOS") + "), " +
                  std::to_string(files.tokenizer->vocab_size()) + " tokens";
  t.tokenizer = std::move(files.tokenizer);
  t.add_bos = true;
  set_chat_template(t, files.config.chat_template, files.config.tool_use_template,
                    files.config.special_tokens, dir);
  return t;
}

}  // namespace

ModelTokenizer load_model_tokenizer(const ModelSource& source, const Vocabulary& vocab) {
  try {
    if (source.kind == "synthetic" || source.kind == "config") {
      return byte_tokenizer(vocab, "synthetic model");
    }
    if (source.kind == "gguf") return gguf_tokenizer(source.path);
    if (source.kind == "safetensors") {
      if (std::filesystem::exists(std::filesystem::path(source.path) / "tokenizer.json")) {
        return hf_tokenizer(source.path);
      }
      return byte_tokenizer(vocab, "placeholder vocabulary of " + std::to_string(vocab.size()) +
                                       " tokens: no tokenizer.json in " + source.path);
    }
    return none("no tokenizer for " + source.kind + " models");
  } catch (const std::exception& e) {  // the model still takes token ids
    return none(e.what());
  }
}

}  // namespace infergate

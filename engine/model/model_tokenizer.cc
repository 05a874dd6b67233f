#include "engine/model/model_tokenizer.h"

#include <stdexcept>

#include "engine/model/gguf_tokenizer_data.h"
#include "engine/tokenizer/byte_tokenizer.h"

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

ModelTokenizer gguf_tokenizer(const std::string& path) {
  const GgufTokenizerData data = read_gguf_tokenizer(path);
  ModelTokenizer t;
  try {
    t.tokenizer = make_tokenizer(data.vocab, data.add_space_prefix);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path + ": " + e.what());
  }
  t.add_bos = data.add_bos;
  t.description = "gguf " + data.vocab.model + " (" + algorithm_of(data.vocab.model) + "), " +
                  std::to_string(data.vocab.size()) + " tokens";
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
      return byte_tokenizer(vocab, "placeholder vocabulary of " + std::to_string(vocab.size()) +
                                       " tokens: safetensors tokenizer files are not read");
    }
    return none("no tokenizer for " + source.kind + " models");
  } catch (const std::exception& e) {  // the model still takes token ids
    return none(e.what());
  }
}

}  // namespace infergate

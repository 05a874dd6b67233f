#include "bench/dataset/dataset_tokenizer.h"

#include <stdexcept>
#include <utility>

#include "engine/model/model_tokenizer.h"
#include "engine/tokenizer/byte_tokenizer.h"

namespace infergate {

bool dataset_has_text(const DatasetSpec& spec) {
  return (spec.type == "jsonl" && (spec.format == "text" || spec.format == "sharegpt")) ||
         (spec.type == "sessions" && spec.format == "sharegpt");
}

DatasetTokenizer byte_dataset_tokenizer(int32_t vocab_size, const std::string& why) {
  DatasetTokenizer t;
  t.tokenizer = std::make_shared<ByteTokenizer>(synthetic_vocabulary(vocab_size));
  t.description =
      "byte over a synthetic vocabulary of " + std::to_string(vocab_size) + " tokens (" + why + ")";
  return t;
}

DatasetTokenizer model_dataset_tokenizer(const ModelSource& source, const Vocabulary& vocab,
                                         int32_t vocab_size) {
  ModelTokenizer m = load_model_tokenizer(source, vocab);
  if (!m.tokenizer) return byte_dataset_tokenizer(vocab_size, "the model has " + m.description);
  DatasetTokenizer t;
  t.tokenizer = std::move(m.tokenizer);
  t.add_bos = m.add_bos;
  t.description = std::move(m.description);
  t.chat = std::make_shared<const ChatTemplate>(std::move(m.chat));
  t.chat_description = std::move(m.chat_description);
  return t;
}

DatasetTokenizer target_dataset_tokenizer(const ModelSource& tokenizer) {
  ModelTokenizer m = load_model_tokenizer(tokenizer, Vocabulary{});
  if (!m.tokenizer) {
    throw std::invalid_argument("target.tokenizer \"" + tokenizer.path + "\": " + m.description);
  }
  DatasetTokenizer t = model_dataset_tokenizer(tokenizer, Vocabulary{}, m.tokenizer->vocab_size());
  t.description += " (target.tokenizer)";
  return t;
}

}  // namespace infergate

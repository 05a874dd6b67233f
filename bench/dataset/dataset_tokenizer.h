// How `text` and `sharegpt` datasets turn text into token ids: an engine target's model's own
// tokenizer (the one generate and serve use, so one text gives the same ids everywhere), an
// openai target's target.tokenizer, else the byte tokenizer over a synthetic vocabulary, as
// before models brought their own. A model's tokenizer comes with its chat template, so a chat
// request's prompt tokens can be counted as the server counts them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "bench/workload/workload.h"
#include "engine/model/model_source.h"
#include "engine/tokenizer/chat_template.h"
#include "engine/tokenizer/tokenizer.h"
#include "engine/tokenizer/vocabulary.h"

namespace infergate {

struct DatasetTokenizer {
  std::shared_ptr<const Tokenizer> tokenizer;  // never null
  bool add_bos = true;
  // For the "dataset tokenizer: ..." line of `run`, e.g. "gguf llama (SentencePiece), 512 tokens".
  std::string description;
  // The model's chat template (ChatML when it has none); null without a model.
  std::shared_ptr<const ChatTemplate> chat;
  std::string chat_description;
  // A sharegpt record's human turn becomes the prompt a chat server would make of it (the
  // model's own template, a generation prompt): for targets sent token ids, when the model has
  // a template of its own. A chat API's server applies the template itself.
  bool template_conversations = false;
};

// Whether `spec` holds text (jsonl in format text or sharegpt), so needs a tokenizer at all.
bool dataset_has_text(const DatasetSpec& spec);

// The byte tokenizer over synthetic_vocabulary(vocab_size), BOS first; `why` (e.g. "echo
// target") goes into the description. Throws std::invalid_argument when vocab_size < 259.
DatasetTokenizer byte_dataset_tokenizer(int32_t vocab_size, const std::string& why);

// load_model_tokenizer(source, vocab), as generate and serve use it, with its chat template. A
// model without a usable tokenizer keeps the byte tokenizer over synthetic_vocabulary(vocab_size),
// saying why, so a workload that ran before still runs.
DatasetTokenizer model_dataset_tokenizer(const ModelSource& source, const Vocabulary& vocab,
                                         int32_t vocab_size);

// An openai target's target.tokenizer (a GGUF file or a directory holding tokenizer.json), read
// without weights. Throws std::invalid_argument naming target.tokenizer when it gives no text
// tokenizer.
DatasetTokenizer target_dataset_tokenizer(const ModelSource& tokenizer);

}  // namespace infergate

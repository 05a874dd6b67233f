// How `text` and `sharegpt` datasets turn text into token ids: an engine target's model's own
// tokenizer (the one generate and serve use, so one text gives the same ids everywhere), else
// the byte tokenizer over a synthetic vocabulary, as before models brought their own.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "bench/workload/workload.h"
#include "engine/model/model_source.h"
#include "engine/tokenizer/tokenizer.h"
#include "engine/tokenizer/vocabulary.h"

namespace infergate {

struct DatasetTokenizer {
  std::shared_ptr<const Tokenizer> tokenizer;  // never null
  bool add_bos = true;
  // For the "dataset tokenizer: ..." line of `run`, e.g. "gguf llama (SentencePiece), 512 tokens".
  std::string description;
};

// Whether `spec` holds text (jsonl in format text or sharegpt), so needs a tokenizer at all.
bool dataset_has_text(const DatasetSpec& spec);

// The byte tokenizer over synthetic_vocabulary(vocab_size), BOS first; `why` (e.g. "echo
// target") goes into the description. Throws std::invalid_argument when vocab_size < 259.
DatasetTokenizer byte_dataset_tokenizer(int32_t vocab_size, const std::string& why);

// load_model_tokenizer(source, vocab), as generate and serve use it. A model without a usable
// tokenizer keeps the byte tokenizer over synthetic_vocabulary(vocab_size), saying why, so a
// workload that ran before still runs.
DatasetTokenizer model_dataset_tokenizer(const ModelSource& source, const Vocabulary& vocab,
                                         int32_t vocab_size);

}  // namespace infergate

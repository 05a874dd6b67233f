// The text a chat request sends for a prompt the harness holds as token ids: chat messages
// are text, and the datasets produce ids. Every id becomes at most one byte, read in the
// synthetic vocabulary that every dataset draws from (engine/tokenizer/vocabulary.h): a byte token
// is its byte, so a jsonl `text` or `sharegpt` prompt (tokenized byte by byte) comes back as
// exactly its text; "▁" is a space; any other id is one lowercase letter ('a' + id % 26);
// control and unknown ids (BOS) are nothing. Bytes that do not form valid UTF-8 (random byte
// tokens) become '?', so a byte-level tokenizer reads back one token per id. A server with a
// real tokenizer counts differently: the prompt's token count is the server's
// usage.prompt_tokens, never this text's length.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/tokenizer/vocabulary.h"

namespace infergate {

class ChatPromptText {
 public:
  // Throws std::invalid_argument when vocab_size < 259 (no room for the byte tokens).
  explicit ChatPromptText(int32_t vocab_size);

  std::string operator()(const std::vector<int32_t>& ids) const;

 private:
  std::vector<int16_t> byte_of_id_;  // per id: its byte, kSpace, kLetter or kNothing
};

// `bytes` with every byte that is not part of a valid UTF-8 sequence replaced by '?'.
std::string valid_utf8_or_question_marks(const std::string& bytes);

}  // namespace infergate

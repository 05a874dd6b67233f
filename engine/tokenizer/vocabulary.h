// The token table a model carries: pieces, scores and types as GGUF's tokenizer.ggml.* keys
// store them, so an exported model can be tokenized by other engines.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace infergate {

// Token types, numbered as llama.cpp's llama_token_type / GGUF tokenizer.ggml.token_type.
enum class TokenType : int32_t {
  kNormal = 1,
  kUnknown = 2,
  kControl = 3,
  kUserDefined = 4,
  kUnused = 5,
  kByte = 6,
};

struct Vocabulary {
  std::string model = "llama";  // GGUF tokenizer.ggml.model: "llama" (SentencePiece) | "gpt2"
  std::vector<std::string> tokens;
  std::vector<float> scores;
  std::vector<TokenType> types;
  std::vector<std::string> merges;  // BPE merges ("gpt2" only)
  int32_t bos_id = 1;
  int32_t eos_id = 2;
  int32_t unk_id = 0;  // < 0: none (byte-level BPE)
  // GGUF's other tokenizer keys, carried so that a model written again keeps them: the
  // pre-tokenizer name of a "gpt2" vocabulary (tokenizer.ggml.pre), whether the file says to add
  // BOS (tokenizer.ggml.add_bos_token) or a space prefix ("llama"), and tokenizer.chat_template.
  std::string pre;
  std::optional<bool> add_bos;
  std::optional<bool> add_space_prefix;
  std::string chat_template;

  size_t size() const { return tokens.size(); }
};

// A SentencePiece-style vocabulary of `size` entries: <unk>, <s>, </s>, the 256 byte tokens
// <0x00>..<0xFF>, a lone "▁" (space), then synthetic pieces, so any UTF-8 text round-trips
// through byte fallback, in our tokenizer and in llama.cpp's.
Vocabulary synthetic_vocabulary(int size);

}  // namespace infergate

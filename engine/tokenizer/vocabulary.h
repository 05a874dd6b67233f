// The token table a model carries: pieces, scores and types as GGUF's tokenizer.ggml.* keys
// store them, so an exported model can be tokenized by other engines.
#pragma once

#include <cstdint>
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
  int32_t unk_id = 0;

  size_t size() const { return tokens.size(); }
};

// A SentencePiece-style vocabulary of `size` entries: <unk>, <s>, </s>, the 256 byte tokens
// <0x00>..<0xFF>, a lone "▁" (space), then synthetic pieces, so any UTF-8 text round-trips
// through byte fallback, in our tokenizer and in llama.cpp's.
Vocabulary synthetic_vocabulary(int size);

}  // namespace infergate

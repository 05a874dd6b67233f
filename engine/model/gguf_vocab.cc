#include "engine/model/gguf_vocab.h"

#include <cstdint>
#include <string>
#include <vector>

#include "engine/model/model_load_error.h"

namespace infergate {

namespace {

int32_t token_id(const GgufFile& g, const std::string& key, int32_t fallback, size_t n) {
  const int64_t id = g.get_int(key, fallback);
  if (g.find(key) && (id < 0 || uint64_t(id) >= n)) {
    throw ModelLoadError(g.path(), "metadata '" + key + "' = " + std::to_string(id) +
                                       " is outside the " + std::to_string(n) +
                                       "-token vocabulary");
  }
  return int32_t(id);
}

// Per-token arrays are optional, but when present must have one entry per token.
std::vector<double> per_token(const GgufFile& g, const std::string& key, size_t n,
                              double fallback) {
  if (!g.find(key)) return std::vector<double>(n, fallback);
  const GgufValue& v = g.get_array(key, GgufValueType::kFloat32);
  if (v.numbers.size() != n) {
    throw ModelLoadError(g.path(), "metadata '" + key + "' has " +
                                       std::to_string(v.numbers.size()) + " entries for " +
                                       std::to_string(n) + " tokens");
  }
  return v.numbers;
}

}  // namespace

Vocabulary read_gguf_vocab(const GgufFile& g) {
  Vocabulary v;
  v.model = g.get_string("tokenizer.ggml.model");
  v.tokens = g.get_array("tokenizer.ggml.tokens", GgufValueType::kString).strings;
  const size_t n = v.tokens.size();
  for (double s : per_token(g, "tokenizer.ggml.scores", n, 0.0)) v.scores.push_back(float(s));
  for (double t : per_token(g, "tokenizer.ggml.token_type", n, 1.0)) {
    v.types.push_back(TokenType(int32_t(t)));
  }
  if (g.find("tokenizer.ggml.merges")) {
    v.merges = g.get_array("tokenizer.ggml.merges", GgufValueType::kString).strings;
  }
  // A gpt2 vocabulary has no <s> at id 1; its specials default to 0 rather than to llama's.
  const bool spm = v.model == "llama";
  v.bos_id = token_id(g, "tokenizer.ggml.bos_token_id", spm ? v.bos_id : 0, n);
  v.eos_id = token_id(g, "tokenizer.ggml.eos_token_id", spm ? v.eos_id : 0, n);
  v.unk_id = token_id(g, "tokenizer.ggml.unknown_token_id", spm ? v.unk_id : -1, n);
  v.pre = g.get_string("tokenizer.ggml.pre", "");
  if (g.find("tokenizer.ggml.add_bos_token")) {
    v.add_bos = g.get_bool("tokenizer.ggml.add_bos_token", true);
  }
  if (g.find("tokenizer.ggml.add_space_prefix")) {
    v.add_space_prefix = g.get_bool("tokenizer.ggml.add_space_prefix", true);
  }
  v.chat_template = g.get_string("tokenizer.chat_template", "");
  return v;
}

}  // namespace infergate

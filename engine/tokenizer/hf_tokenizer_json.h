// Hugging Face's tokenizer files: tokenizer.json (the whole pipeline: normalizer, pre-tokenizer,
// BPE model, added tokens, post-processor, decoder) and tokenizer_config.json beside it (BOS and
// EOS tokens, add_bos_token/add_eos_token, the chat template). What is not supported (a Unigram
// or WordPiece model, a normalizer such as Precompiled, BPE dropout) is refused with the file,
// the JSON path and the allowed values; sizes are bounded before anything is allocated.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/tokenizer/hf_tokenizer.h"

namespace infergate {

// Ids of tokenizer.json: the largest accepted (Gemma 3 has 262,144 tokens, Qwen 151,669).
inline constexpr int64_t kMaxHfTokenId = (int64_t(1) << 24) - 1;

struct HfTokenizerConfig {
  std::optional<bool> add_bos_token;  // absent: the post-processor decides
  std::optional<bool> add_eos_token;
  std::string bos_token;  // "" when absent or null
  std::string eos_token;
  // Every special token the config names (bos_token, eos_token, unk_token, sep_token,
  // pad_token, cls_token, mask_token), as a chat template's context has them.
  std::map<std::string, std::string> special_tokens;
  std::string chat_template;      // "" when absent (of a list of named templates: "default")
  std::string tool_use_template;  // a list's "tool_use" template, for requests with tools
};

// tokenizer_config.json's fields above; `path` names the file in errors.
HfTokenizerConfig parse_hf_tokenizer_config(const nlohmann::json& doc, const std::string& path);

// The tokenizer of tokenizer.json (`doc`, read from `path`) with `config`. Throws
// std::invalid_argument "<path>: $.<json path>: <problem>".
std::unique_ptr<HfTokenizer> build_hf_tokenizer(const nlohmann::json& doc, const std::string& path,
                                                const HfTokenizerConfig& config);

// Reads `dir`/tokenizer.json and, when present, `dir`/tokenizer_config.json (and the template
// file chat_template.jinja, which a newer transformers writes instead of the config's field).
struct HfTokenizerFiles {
  std::unique_ptr<HfTokenizer> tokenizer;
  HfTokenizerConfig config;
};
HfTokenizerFiles load_hf_tokenizer(const std::string& dir);

}  // namespace infergate

// Structured output requests (OpenAI's `response_format`, vLLM's `guided_json`,
// `guided_regex`, `guided_choice`, `guided_grammar` and `structured_outputs`) compiled into a
// grammar over the served model's vocabulary. Compiled grammars are kept by their GBNF text, so
// a schema sent again reuses its grammar and the token masks already computed for it.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "engine/grammar/token_grammar.h"
#include "engine/tokenizer/tokenizer.h"

namespace infergate {

class GrammarCache {
 public:
  static constexpr size_t kMaxGrammars = 64;

  // The grammar of `gbnf` over `tokenizer`'s vocabulary (built on first use: each token's
  // bytes; tokens that decode to nothing, the control tokens, are never allowed). Throws
  // GrammarError.
  std::shared_ptr<const TokenGrammar> get(const std::string& gbnf, const Tokenizer& tokenizer);

 private:
  std::mutex mutex_;
  std::shared_ptr<const TokenTrie> vocabulary_;
  std::list<std::string> order_;  // least recently used first
  std::unordered_map<std::string, std::shared_ptr<const TokenGrammar>> grammars_;
};

struct StructuredOutput {
  std::string field;  // the request field that asked for it
  std::string gbnf;   // "" when no field does
};

// What a request's structured-output fields ask for (the request parsed keeping its keys'
// order: a schema's properties are generated in the order written). Throws ApiError 400 naming the
// field (and the JSON path inside it) for a malformed or unsupported request, or for more than one
// such field.
StructuredOutput structured_output_gbnf(const nlohmann::ordered_json& request);

}  // namespace infergate

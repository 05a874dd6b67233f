// POST /v1/completions and /v1/chat/completions: the JSON body, parsed and checked against the
// served model before the engine sees it. Every refusal is an ApiError naming the field, so a
// bad request costs one 4xx and nothing else.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "engine/request/sampling_params.h"
#include "engine/tokenizer/chat_template.h"
#include "engine/tokenizer/tokenizer.h"
#include "server/openai/structured_output.h"
#include "server/openai/tool_request.h"

namespace infergate {

// What the parser needs to know about the model being served.
struct ServedModel {
  std::string name;  // the one reported (responses, /metrics); also answered to
  int32_t vocab_size = 0;
  int max_model_len = 0;
  const Tokenizer* tokenizer = nullptr;       // null: text prompts and chat are refused
  bool add_bos = true;                        // text prompts start with the BOS token
  std::vector<std::string> other_names = {};  // also answered to (--served-model-name)
  const ChatTemplate* chat = nullptr;         // the model's chat template; null: ChatML
  // Structured output's compiled grammars, shared by every request to this model.
  std::shared_ptr<GrammarCache> grammars = std::make_shared<GrammarCache>();

  bool answers_to(const std::string& model) const;
  std::string names_text() const;  // 'a', 'b' for messages
};

enum class ApiKind { kCompletions, kChat };

struct CompletionRequest {
  static constexpr int kMaxChoices = 128;  // `n`

  ApiKind api = ApiKind::kCompletions;
  std::vector<int32_t> prompt;
  SamplingParams sampling;
  int n = 1;              // choices, each an engine request sharing the prompt's cached blocks
  bool echo = false;      // completions: the prompt's text comes first
  std::string echo_text;  // with echo: the prompt as sent, or its token ids' text
  std::vector<std::string> stop;  // stop strings: the text ends before the first one found
  ToolRequest tools;  // chat: the functions shown to the model and whether calls are read back
  bool stream = false;
  bool include_usage = false;  // stream_options.include_usage
  // infergate's `resume_token_ids`: tokens another replica already generated for this request
  // (the router migrating it, docs/router.md). They are prefilled after the prompt, count toward
  // max_tokens and the usage, and are not sent again.
  std::vector<int32_t> resumed;
  // infergate's `kv_transfer` (docs/disaggregation.md): export the prompt's KV for a decode
  // worker, or read it from the prefill worker described by `kv_source` (null: neither).
  bool kv_export = false;
  nlohmann::json kv_source;
};

// Throws ApiError (400, or 404 for another model's name) on malformed JSON, unknown fields,
// wrong types, bad values, an empty or out-of-vocabulary prompt, or a request that cannot fit
// in max_model_len.
CompletionRequest parse_completion_request(std::string_view body, const ServedModel& model);

}  // namespace infergate

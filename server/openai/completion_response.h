// Engine outputs rendered as OpenAI completions or chat completions: one JSON object for a
// whole answer, or Server-Sent Events ("data: {...}\n\n" per chunk, then "data: [DONE]\n\n")
// for a stream. Each choice also carries `token_ids` (as vLLM's return_token_ids does): models
// without a text tokenizer have no text, and benchmarks count tokens, not characters.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/request/sequence.h"
#include "engine/tokenizer/tokenizer.h"
#include "server/openai/completion_request.h"
#include "server/openai/tool_call_parser.h"
#include "server/openai/utf8_stream.h"

namespace infergate {

// One choice's rendering (a request with `n` choices has n, each with its own text state).
class CompletionRenderer {
 public:
  // `tokenizer` may be null: text stays empty, token_ids carry the output. `index`: the
  // choice's place among the request's `n`.
  CompletionRenderer(ApiKind api, std::string id, std::string model, int64_t created,
                     const Tokenizer* tokenizer, int index = 0);

  // The text `ids` complete (an incomplete UTF-8 character waits for the next tokens). Tokens
  // decode one by one: a completion continues its prompt, so a leading space is kept.
  std::string decode(const std::vector<int32_t>& ids);
  // The text still held back, at the end of the completion.
  std::string finish_text() { return utf8_.finish(); }

  // This choice of a whole answer (non-streaming); `logprobs` is null when not asked for. A
  // chat answer with `calls` has them as tool_calls (content null when only blanks are left)
  // and, stopped by the model, finish_reason "tool_calls".
  nlohmann::json choice(const std::string& text, const std::vector<int32_t>& ids,
                        FinishReason reason, const nlohmann::json& logprobs = nullptr,
                        const std::vector<ToolCall>& calls = {});
  // A whole answer: the envelope around `choices` (in index order) and the usage.
  nlohmann::json completion(nlohmann::json choices, int prompt_tokens, int completion_tokens) const;
  // One streamed chunk of this choice; `reason` kNone while the answer goes on. A chat
  // stream's first chunk of a choice carries the assistant role; each call completed in this
  // chunk comes whole (id, name and arguments) in delta.tool_calls, numbered on from the last.
  nlohmann::json chunk(const std::string& text, const std::vector<int32_t>& ids,
                       FinishReason reason, const nlohmann::json& logprobs = nullptr,
                       const std::vector<ToolCall>& calls = {});
  // The answer was begun elsewhere (a resumed request): a chat stream's role went out there.
  void resumed() { role_sent_ = true; }
  // The last streamed chunk when stream_options.include_usage: no choices, only usage.
  nlohmann::json usage_chunk(int prompt_tokens, int completion_tokens) const;

 private:
  nlohmann::json envelope(bool streamed) const;
  nlohmann::json reason_json(FinishReason reason) const;
  // OpenAI's shape of call `index`, with a new id ("call_" and 24 random characters).
  nlohmann::json tool_call_json(const ToolCall& call, int index);

  ApiKind api_;
  std::string id_, model_;
  int64_t created_;
  const Tokenizer* tokenizer_;
  int index_;
  Utf8Stream utf8_;
  bool role_sent_ = false;
  int calls_made_ = 0;  // tool calls in this choice so far
  std::mt19937_64 call_ids_{std::random_device{}()};
};

nlohmann::json usage_json(int prompt_tokens, int completion_tokens);
// "data: <json>\n\n"; invalid UTF-8 cannot reach here (Utf8Stream), but is replaced if it does.
std::string sse_event(const nlohmann::json& data);
inline constexpr const char* kSseDone = "data: [DONE]\n\n";
// JSON text for a response body, with the same UTF-8 guarantee.
std::string dump_json(const nlohmann::json& j);

}  // namespace infergate

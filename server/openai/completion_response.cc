#include "server/openai/completion_response.h"

namespace infergate {

namespace {

using nlohmann::json;

bool blank(const std::string& text) {
  return text.find_first_not_of(" \t\r\n") == std::string::npos;
}

const char* object_name(ApiKind api, bool streamed) {
  if (api == ApiKind::kCompletions) return "text_completion";
  return streamed ? "chat.completion.chunk" : "chat.completion";
}

}  // namespace

CompletionRenderer::CompletionRenderer(ApiKind api, std::string id, std::string model,
                                       int64_t created, const Tokenizer* tokenizer, int index)
    : api_(api),
      id_(std::move(id)),
      model_(std::move(model)),
      created_(created),
      tokenizer_(tokenizer),
      index_(index) {}

std::string CompletionRenderer::decode(const std::vector<int32_t>& ids) {
  if (!tokenizer_) return "";
  std::string bytes;
  for (const int32_t id : ids) bytes += tokenizer_->decode_token(id);
  return utf8_.push(bytes);
}

json CompletionRenderer::envelope(bool streamed) const {
  return {{"id", id_},
          {"object", object_name(api_, streamed)},
          {"created", created_},
          {"model", model_}};
}

json CompletionRenderer::reason_json(FinishReason reason) const {
  if (reason == FinishReason::kNone) return nullptr;
  // The model ended its turn after calling: the client is to run the calls (OpenAI's reason).
  if (reason == FinishReason::kStop && calls_made_ > 0) return "tool_calls";
  return finish_reason_name(reason);
}

json CompletionRenderer::tool_call_json(const ToolCall& call, int index) {
  static const char kAlphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::string id = "call_";
  for (int i = 0; i < 24; ++i) id += kAlphabet[call_ids_() % (sizeof(kAlphabet) - 1)];
  return {{"index", index},
          {"id", id},
          {"type", "function"},
          {"function", {{"name", call.name}, {"arguments", call.arguments}}}};
}

json CompletionRenderer::choice(const std::string& text, const std::vector<int32_t>& ids,
                                FinishReason reason, const json& logprobs,
                                const std::vector<ToolCall>& calls) {
  json tool_calls = json::array();
  for (const ToolCall& call : calls) {
    json rendered = tool_call_json(call, calls_made_++);
    rendered.erase("index");  // a message's calls are in order; only stream deltas number them
    tool_calls.push_back(std::move(rendered));
  }
  json choice = {{"index", index_}, {"token_ids", ids}, {"finish_reason", reason_json(reason)}};
  if (api_ == ApiKind::kChat) {
    const bool no_content = !calls.empty() && blank(text);
    choice["message"] = {{"role", "assistant"}, {"content", no_content ? json() : json(text)}};
    if (!calls.empty()) choice["message"]["tool_calls"] = std::move(tool_calls);
  } else {
    choice["text"] = text;
  }
  choice["logprobs"] = logprobs;
  return choice;
}

json CompletionRenderer::completion(json choices, int prompt_tokens, int completion_tokens) const {
  json j = envelope(false);
  j["choices"] = std::move(choices);
  j["usage"] = usage_json(prompt_tokens, completion_tokens);
  return j;
}

json CompletionRenderer::chunk(const std::string& text, const std::vector<int32_t>& ids,
                               FinishReason reason, const json& logprobs,
                               const std::vector<ToolCall>& calls) {
  json tool_calls = json::array();
  for (const ToolCall& call : calls) tool_calls.push_back(tool_call_json(call, calls_made_++));
  json choice = {{"index", index_}, {"token_ids", ids}, {"finish_reason", reason_json(reason)}};
  if (api_ == ApiKind::kChat) {
    choice["delta"] = {{"content", text.empty() && !calls.empty() ? json() : json(text)}};
    if (!calls.empty()) choice["delta"]["tool_calls"] = std::move(tool_calls);
    if (!role_sent_) choice["delta"]["role"] = "assistant";
    role_sent_ = true;
  } else {
    choice["text"] = text;
  }
  choice["logprobs"] = logprobs;
  json j = envelope(true);
  j["choices"] = json::array({choice});
  return j;
}

json CompletionRenderer::usage_chunk(int prompt_tokens, int completion_tokens) const {
  json j = envelope(true);
  j["choices"] = json::array();
  j["usage"] = usage_json(prompt_tokens, completion_tokens);
  return j;
}

json usage_json(int prompt_tokens, int completion_tokens) {
  return {{"prompt_tokens", prompt_tokens},
          {"completion_tokens", completion_tokens},
          {"total_tokens", prompt_tokens + completion_tokens}};
}

std::string dump_json(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string sse_event(const json& data) { return "data: " + dump_json(data) + "\n\n"; }

}  // namespace infergate

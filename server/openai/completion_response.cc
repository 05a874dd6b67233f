#include "server/openai/completion_response.h"

namespace infergate {

namespace {

using nlohmann::json;

json reason_json(FinishReason reason) {
  return reason == FinishReason::kNone ? json() : finish_reason_name(reason);
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

json CompletionRenderer::choice(const std::string& text, const std::vector<int32_t>& ids,
                                FinishReason reason, const json& logprobs) const {
  json choice = {{"index", index_}, {"token_ids", ids}, {"finish_reason", reason_json(reason)}};
  if (api_ == ApiKind::kChat) {
    choice["message"] = {{"role", "assistant"}, {"content", text}};
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
                               FinishReason reason, const json& logprobs) {
  json choice = {{"index", index_}, {"token_ids", ids}, {"finish_reason", reason_json(reason)}};
  if (api_ == ApiKind::kChat) {
    choice["delta"] = {{"content", text}};
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

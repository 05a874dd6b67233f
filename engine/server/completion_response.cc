#include "engine/server/completion_response.h"

namespace infergate {

namespace {

nlohmann::json reason_json(FinishReason reason) {
  return reason == FinishReason::kNone ? nlohmann::json() : finish_reason_name(reason);
}

}  // namespace

CompletionRenderer::CompletionRenderer(std::string id, std::string model, int64_t created,
                                       const ByteTokenizer* tokenizer)
    : id_(std::move(id)), model_(std::move(model)), created_(created), tokenizer_(tokenizer) {}

std::string CompletionRenderer::decode(const std::vector<int32_t>& ids) {
  if (!tokenizer_) return "";
  return utf8_.push(tokenizer_->decode(ids));
}

nlohmann::json CompletionRenderer::envelope() const {
  return {{"id", id_}, {"object", "text_completion"}, {"created", created_}, {"model", model_}};
}

nlohmann::json CompletionRenderer::completion(const std::string& text,
                                              const std::vector<int32_t>& ids, FinishReason reason,
                                              int prompt_tokens) const {
  nlohmann::json j = envelope();
  j["choices"] = nlohmann::json::array(
      {{{"index", 0}, {"text", text}, {"token_ids", ids}, {"finish_reason", reason_json(reason)}}});
  j["usage"] = usage_json(prompt_tokens, int(ids.size()));
  return j;
}

nlohmann::json CompletionRenderer::chunk(const std::string& text, const std::vector<int32_t>& ids,
                                         FinishReason reason) const {
  nlohmann::json j = envelope();
  j["choices"] = nlohmann::json::array(
      {{{"index", 0}, {"text", text}, {"token_ids", ids}, {"finish_reason", reason_json(reason)}}});
  return j;
}

nlohmann::json CompletionRenderer::usage_chunk(int prompt_tokens, int completion_tokens) const {
  nlohmann::json j = envelope();
  j["choices"] = nlohmann::json::array();
  j["usage"] = usage_json(prompt_tokens, completion_tokens);
  return j;
}

nlohmann::json usage_json(int prompt_tokens, int completion_tokens) {
  return {{"prompt_tokens", prompt_tokens},
          {"completion_tokens", completion_tokens},
          {"total_tokens", prompt_tokens + completion_tokens}};
}

std::string dump_json(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string sse_event(const nlohmann::json& data) { return "data: " + dump_json(data) + "\n\n"; }

}  // namespace infergate

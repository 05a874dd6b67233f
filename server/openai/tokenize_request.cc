#include "server/openai/tokenize_request.h"

#include "server/openai/chat_request.h"
#include "server/openai/request_fields.h"
#include "server/openai/tool_request.h"

namespace infergate {

namespace {

using nlohmann::json;

bool flag(const json& j, const std::string& key, bool otherwise) {
  if (!j.contains(key) || j[key].is_null()) return otherwise;
  if (!j[key].is_boolean()) throw bad_field(key, "'" + key + "' must be true or false");
  return j[key].get<bool>();
}

const Tokenizer& text_tokenizer(const ServedModel& model, const std::string& field) {
  if (!model.tokenizer) {
    throw bad_field(field, model.name + " has no text tokenizer infergate can use");
  }
  return *model.tokenizer;
}

}  // namespace

json answer_tokenize(std::string_view body, const ServedModel& model) {
  const json j = parse_request_object(
      body, {"model", "prompt", "messages", "tools", "add_special_tokens", "add_generation_prompt"},
      model);
  if (j.contains("prompt") == j.contains("messages")) {
    throw bad_field("prompt", "give exactly one of 'prompt' and 'messages'");
  }
  std::vector<int32_t> ids;
  if (j.contains("messages")) {
    const nlohmann::ordered_json request = chat_request_object(j, body);
    ids = chat_prompt_ids(request, model, flag(j, "add_generation_prompt", true),
                          read_tool_request(request).tools);
  } else {
    if (!j["prompt"].is_string()) throw bad_field("prompt", "'prompt' must be a string");
    const bool special = flag(j, "add_special_tokens", true) && model.add_bos;
    ids = text_tokenizer(model, "prompt").encode(j["prompt"].get<std::string>(), special);
  }
  return {{"count", ids.size()}, {"max_model_len", model.max_model_len}, {"tokens", ids}};
}

json answer_detokenize(std::string_view body, const ServedModel& model) {
  const json j = parse_request_object(body, {"model", "tokens"}, model);
  if (!j.contains("tokens")) throw bad_field("tokens", "'tokens' is required");
  const std::vector<int32_t> ids = read_token_ids(j["tokens"], "tokens", model.vocab_size);
  const std::string text = text_tokenizer(model, "tokens").decode(ids);
  // Invalid UTF-8 (a token that is half a character) becomes U+FFFD, as Hugging Face decodes.
  return {{"prompt", json::parse(json(text).dump(-1, ' ', false, json::error_handler_t::replace))}};
}

}  // namespace infergate

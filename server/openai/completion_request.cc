#include "server/openai/completion_request.h"

#include "server/openai/request_fields.h"

namespace infergate {

bool ServedModel::answers_to(const std::string& model) const {
  if (model == name) return true;
  for (const std::string& other : other_names) {
    if (model == other) return true;
  }
  return false;
}

std::string ServedModel::names_text() const {
  std::string text = "'" + name + "'";
  for (const std::string& other : other_names) text += ", '" + other + "'";
  return text;
}

namespace {

using nlohmann::json;

std::vector<int32_t> parse_prompt(const json& v, const ServedModel& model) {
  if (v.is_string()) {
    if (!model.tokenizer) {
      throw bad_field("prompt", "text prompts need a tokenizer, and " + model.name +
                                    " has none infergate can use (send token ids)");
    }
    if (v.get_ref<const std::string&>().empty()) throw bad_field("prompt", "'prompt' is empty");
    std::vector<int32_t> ids = model.tokenizer->encode(v.get<std::string>(), model.add_bos);
    // A vocabulary without byte fallback drops what it cannot spell (as llama.cpp does).
    if (ids.empty())
      throw bad_field("prompt", "'prompt' has no text this model's vocabulary can spell");
    return ids;
  }
  if (!v.is_array()) {
    throw bad_field("prompt", "'prompt' must be a string or an array of token ids");
  }
  if (!v.empty() && (v[0].is_array() || v[0].is_string())) {
    throw bad_field("prompt", "batched prompts (an array of prompts) are not supported");
  }
  if (v.empty()) throw bad_field("prompt", "'prompt' is empty");
  return read_token_ids(v, "prompt", model.vocab_size);
}

}  // namespace

CompletionRequest parse_completion_request(std::string_view body, const ServedModel& model) {
  const json j = parse_request_object(body, ApiKind::kCompletions, model);
  if (!j.contains("prompt")) throw bad_field("prompt", "'prompt' is required");
  CompletionRequest r;
  r.prompt = parse_prompt(j["prompt"], model);
  read_shared_fields(j, body, model, r);
  if (r.echo && j["prompt"].is_string()) r.echo_text = j["prompt"].get<std::string>();
  if (r.echo && !j["prompt"].is_string() && model.tokenizer) {
    r.echo_text = model.tokenizer->decode(r.prompt);
  }
  return r;
}

}  // namespace infergate

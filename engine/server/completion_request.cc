#include "engine/server/completion_request.h"

#include <nlohmann/json.hpp>
#include <set>

#include "engine/server/openai_error.h"

namespace infergate {

namespace {

using nlohmann::json;

ApiError bad(const std::string& field, const std::string& message) {
  return ApiError(400, message, field);
}

const std::set<std::string>& known_fields() {
  static const std::set<std::string> fields = {
      "model", "prompt",     "max_tokens", "temperature",    "top_p",         "top_k",
      "seed",  "ignore_eos", "stream",     "stream_options", "stop_token_ids"};
  return fields;
}

int64_t get_integer(const json& v, const std::string& field) {
  if (!v.is_number_integer()) throw bad(field, "'" + field + "' must be an integer");
  if (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(INT64_MAX)) {
    throw bad(field, "'" + field + "' is out of range");
  }
  return v.get<int64_t>();
}

int get_int(const json& v, const std::string& field) {
  const int64_t x = get_integer(v, field);
  if (x < INT32_MIN || x > INT32_MAX) throw bad(field, "'" + field + "' is out of range");
  return int(x);
}

float get_number(const json& v, const std::string& field) {
  if (!v.is_number()) throw bad(field, "'" + field + "' must be a number");
  return v.get<float>();
}

bool get_bool(const json& v, const std::string& field) {
  if (!v.is_boolean()) throw bad(field, "'" + field + "' must be a boolean");
  return v.get<bool>();
}

std::vector<int32_t> token_ids(const json& v, const std::string& field, int32_t vocab_size) {
  std::vector<int32_t> ids;
  for (size_t i = 0; i < v.size(); ++i) {
    const json& t = v[i];
    if (!t.is_number_integer()) {
      throw bad(field, "'" + field + "' must be a string or an array of token ids");
    }
    const bool in_vocab = t.is_number_unsigned()
                              ? t.get<uint64_t>() < uint64_t(vocab_size)
                              : t.get<int64_t>() >= 0 && t.get<int64_t>() < vocab_size;
    if (!in_vocab) {
      throw bad(field, "token id " + t.dump() + " at position " + std::to_string(i) +
                           " is outside the vocabulary [0, " + std::to_string(vocab_size) + ")");
    }
    const int64_t id = t.get<int64_t>();
    ids.push_back(int32_t(id));
  }
  return ids;
}

std::vector<int32_t> parse_prompt(const json& v, const ServedModel& model) {
  if (v.is_string()) {
    if (!model.tokenizer) {
      throw bad("prompt", "text prompts need a tokenizer: not supported yet for " + model.name +
                              " (send token ids)");
    }
    if (v.get_ref<const std::string&>().empty()) throw bad("prompt", "'prompt' is empty");
    return model.tokenizer->encode(v.get<std::string>(), /*add_bos=*/true);
  }
  if (!v.is_array()) throw bad("prompt", "'prompt' must be a string or an array of token ids");
  if (!v.empty() && (v[0].is_array() || v[0].is_string())) {
    throw bad("prompt", "batched prompts (an array of prompts) are not supported yet");
  }
  if (v.empty()) throw bad("prompt", "'prompt' is empty");
  return token_ids(v, "prompt", model.vocab_size);
}

}  // namespace

CompletionRequest parse_completion_request(std::string_view body, const ServedModel& model) {
  const json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) throw ApiError(400, "the request body is not valid JSON");
  if (!j.is_object()) throw ApiError(400, "the request body must be a JSON object");
  for (const auto& [key, value] : j.items()) {
    if (!known_fields().count(key)) throw bad(key, "unknown field '" + key + "'");
  }
  if (j.contains("model")) {
    if (!j["model"].is_string()) throw bad("model", "'model' must be a string");
    if (j["model"].get<std::string>() != model.name) {
      throw ApiError(404,
                     "the model '" + j["model"].get<std::string>() +
                         "' does not exist (this server serves '" + model.name + "')",
                     "model");
    }
  }
  if (!j.contains("prompt")) throw bad("prompt", "'prompt' is required");

  CompletionRequest r;
  r.prompt = parse_prompt(j["prompt"], model);
  SamplingParams& s = r.sampling;
  if (j.contains("max_tokens")) s.max_tokens = get_int(j["max_tokens"], "max_tokens");
  if (j.contains("temperature")) s.temperature = get_number(j["temperature"], "temperature");
  if (j.contains("top_p")) s.top_p = get_number(j["top_p"], "top_p");
  if (j.contains("top_k")) {
    s.top_k = get_int(j["top_k"], "top_k");
    if (s.top_k == -1) s.top_k = 0;  // vLLM's "off"
  }
  if (j.contains("seed") && !j["seed"].is_null()) {
    const int64_t seed = get_integer(j["seed"], "seed");
    if (seed < 0) throw bad("seed", "'seed' must be >= 0");
    s.seed = uint64_t(seed);
  }
  if (j.contains("ignore_eos")) s.ignore_eos = get_bool(j["ignore_eos"], "ignore_eos");
  if (j.contains("stop_token_ids")) {
    const json& v = j["stop_token_ids"];
    if (!v.is_array()) throw bad("stop_token_ids", "'stop_token_ids' must be an array");
    s.stop_token_ids = token_ids(v, "stop_token_ids", model.vocab_size);
  }
  if (j.contains("stream")) r.stream = get_bool(j["stream"], "stream");
  if (j.contains("stream_options") && !j["stream_options"].is_null()) {
    const json& o = j["stream_options"];
    if (!r.stream) throw bad("stream_options", "'stream_options' needs \"stream\": true");
    if (!o.is_object()) throw bad("stream_options", "'stream_options' must be an object");
    for (const auto& [key, value] : o.items()) {
      if (key != "include_usage") throw bad("stream_options", "unknown field '" + key + "'");
      r.include_usage = get_bool(value, "stream_options.include_usage");
    }
  }

  if (s.max_tokens < 1) throw bad("max_tokens", "'max_tokens' must be >= 1");
  const int prompt_len = int(r.prompt.size());
  if (prompt_len >= model.max_model_len) {
    throw bad("prompt", "the prompt has " + std::to_string(prompt_len) +
                            " tokens; this model's maximum context length is " +
                            std::to_string(model.max_model_len));
  }
  if (s.max_tokens > model.max_model_len - prompt_len) {
    throw bad("max_tokens", "'max_tokens' is " + std::to_string(s.max_tokens) + " but only " +
                                std::to_string(model.max_model_len - prompt_len) +
                                " tokens fit after the " + std::to_string(prompt_len) +
                                "-token prompt (maximum context length " +
                                std::to_string(model.max_model_len) + ")");
  }
  try {
    s.validate();
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();  // "<field> must be ..."
    throw ApiError(400, message, message.substr(0, message.find(' ')));
  }
  return r;
}

}  // namespace infergate

#include "fuzz/request_invariants.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/tokenizer/chat_template.h"
#include "fuzz/fuzz_failure.h"

namespace infergate::fuzz {

namespace {

using nlohmann::json;

bool ids_in_vocab(const std::vector<int32_t>& ids, int32_t vocab_size) {
  for (const int32_t id : ids) {
    if (id < 0 || id >= vocab_size) return false;
  }
  return true;
}

bool stops_valid(const std::vector<std::string>& stops) {
  for (const std::string& s : stops) {
    if (s.empty()) return false;
  }
  return stops.size() <= 4;
}

// What every accepted request, from either endpoint, must satisfy.
void check_fits_and_valid(const CompletionRequest& r, const ServedModel& model,
                          std::string_view body) {
  const SamplingParams& s = r.sampling;
  require(!r.prompt.empty(), "accepted an empty prompt", body);
  require(ids_in_vocab(r.prompt, model.vocab_size), "a prompt id is outside the vocabulary", body);
  require(ids_in_vocab(s.stop_token_ids, model.vocab_size),
          "a stop token id is outside the vocabulary", body);
  require(s.max_tokens >= 1, "accepted max_tokens < 1", body);
  require(int64_t(r.prompt.size()) + s.max_tokens <= model.max_model_len,
          "prompt + max_tokens exceeds max_model_len", body);
  try {
    s.validate(model.vocab_size);
  } catch (const std::invalid_argument& e) {
    fail(std::string("accepted invalid sampling params: ") + e.what(), body);
  }
  require(stops_valid(r.stop), "accepted more than 4 or empty stop strings", body);
  require(r.stream || !r.include_usage, "include_usage without stream", body);
  require(ids_in_vocab(r.resumed, model.vocab_size), "a resumed id is outside the vocabulary",
          body);
  require(r.resumed.empty() || r.stream, "resume_token_ids without stream", body);
  require(int64_t(r.resumed.size()) < s.max_tokens, "resumed as many tokens as max_tokens", body);
  require(!r.kv_export || !r.stream, "kv_transfer.export on a stream", body);
  require(r.kv_source.is_null() || r.kv_source.is_object(), "a kv_transfer.source not an object",
          body);
  require(!r.kv_export || r.kv_source.is_null(), "kv_transfer both exports and reads", body);
  require(r.n >= 1 && r.n <= CompletionRequest::kMaxChoices, "accepted n out of range", body);
  require(r.n == 1 || (r.resumed.empty() && !r.kv_export && r.kv_source.is_null()),
          "accepted n > 1 with resume_token_ids or kv_transfer", body);
  require(!r.echo || s.logprobs < 0, "accepted echo with logprobs", body);
}

// The request as a /v1/completions body of token ids with every field spelled out.
std::string canonical_completion_body(const CompletionRequest& r, const ServedModel& model) {
  const SamplingParams& s = r.sampling;
  json j = {{"model", model.name},
            {"prompt", r.prompt},
            {"max_tokens", s.max_tokens},
            {"temperature", s.temperature},
            {"top_p", s.top_p},
            {"top_k", s.top_k},
            {"seed", s.seed ? json(*s.seed) : json()},
            {"ignore_eos", s.ignore_eos},
            {"stop_token_ids", s.stop_token_ids},
            {"stop", r.stop},
            {"n", r.n},
            {"frequency_penalty", s.frequency_penalty},
            {"presence_penalty", s.presence_penalty},
            {"repetition_penalty", s.repetition_penalty},
            {"min_tokens", s.min_tokens},
            {"echo", r.echo},
            {"stream", r.stream}};
  json bias = json::object();
  for (const auto& [id, value] : s.logit_bias) bias[std::to_string(id)] = value;
  j["logit_bias"] = bias;
  if (s.logprobs >= 0) j["logprobs"] = s.logprobs;
  if (r.stream) j["stream_options"] = {{"include_usage", r.include_usage}};
  if (!r.resumed.empty()) j["resume_token_ids"] = r.resumed;
  if (r.kv_export) j["kv_transfer"] = {{"export", true}};
  if (!r.kv_source.is_null()) j["kv_transfer"] = {{"source", r.kv_source}};
  return j.dump();
}

// Equal in everything but the endpoint it came through.
bool same_request(const CompletionRequest& a, const CompletionRequest& b) {
  const SamplingParams& x = a.sampling;
  const SamplingParams& y = b.sampling;
  return a.prompt == b.prompt && a.resumed == b.resumed && a.stop == b.stop &&
         a.stream == b.stream && a.include_usage == b.include_usage &&
         x.temperature == y.temperature && x.top_k == y.top_k && x.top_p == y.top_p &&
         x.seed == y.seed && x.max_tokens == y.max_tokens && x.stop_token_ids == y.stop_token_ids &&
         x.ignore_eos == y.ignore_eos && a.kv_export == b.kv_export && a.kv_source == b.kv_source &&
         a.n == b.n && a.echo == b.echo && x.frequency_penalty == y.frequency_penalty &&
         x.presence_penalty == y.presence_penalty && x.repetition_penalty == y.repetition_penalty &&
         x.min_tokens == y.min_tokens && x.logit_bias == y.logit_bias && x.logprobs == y.logprobs;
}

// What was accepted once is accepted again, as the same request, when spelled canonically.
void check_round_trip(const CompletionRequest& r, const ServedModel& model, std::string_view body) {
  const std::string again = canonical_completion_body(r, model);
  try {
    require(same_request(r, parse_completion_request(again, model)),
            "the canonical rendering of an accepted request parses to another request", body);
  } catch (const ApiError& e) {
    fail(std::string("the canonical rendering of an accepted request is refused: ") + e.what() +
             "\ncanonical body: " + again,
         body);
  }
}

json parse_accepted(std::string_view body) {
  json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
  require(j.is_object(), "accepted a body that is not a JSON object", body);
  return j;
}

// The prompt a completion body asked for: its ids, or its text through the model's tokenizer.
void check_completion_prompt(const CompletionRequest& r, const ServedModel& model,
                             std::string_view body) {
  const json j = parse_accepted(body);
  require(j.contains("prompt"), "accepted a completion body without a prompt", body);
  const json& prompt = j["prompt"];
  if (prompt.is_string()) {
    require(model.tokenizer != nullptr, "accepted a text prompt for a model without tokenizer",
            body);
    require(r.prompt == model.tokenizer->encode(prompt.get<std::string>(), model.add_bos),
            "the prompt is not the tokenized text", body);
    return;
  }
  require(prompt.is_array() && prompt.size() == r.prompt.size(),
          "the prompt is not the body's array of ids", body);
  for (size_t i = 0; i < r.prompt.size(); ++i) {
    require(prompt[i].is_number_integer() && prompt[i].get<int64_t>() == r.prompt[i],
            "the prompt is not the body's array of ids", body);
  }
}

// The text of an accepted message's content: the string, or its text parts concatenated.
std::string content_text(const json& content, std::string_view body) {
  if (content.is_string()) return content.get<std::string>();
  require(content.is_array(), "accepted a message content that is neither string nor array", body);
  std::string text;
  for (const json& part : content) {
    require(part.is_object() && part.contains("text") && part["text"].is_string(),
            "accepted a content part without text", body);
    text += part["text"].get<std::string>();
  }
  return text;
}

bool uses_tools(const json& j) {
  if (j.contains("tools") && !j["tools"].is_null()) return true;
  for (const json& m : j["messages"]) {
    if (m.is_object() && m.contains("tool_calls") && !m["tool_calls"].is_null()) return true;
  }
  return false;
}

// ChatML shows every tool by name in the system turn; calls are read back only with tools.
void check_tool_prompt(const CompletionRequest& r, const ServedModel& model, const json& j,
                       std::string_view body) {
  const std::string prompt = model.tokenizer->decode(r.prompt);
  const json tools = j.value("tools", json());
  require(tools.is_null() || tools.is_array(), "accepted tools that are not an array", body);
  require(r.tools.names.size() == (tools.is_array() ? tools.size() : 0),
          "the tools read are not the tools sent", body);
  for (const std::string& name : r.tools.names) {
    require(prompt.find("\"" + name + "\"") != std::string::npos,
            "a tool's name is missing from the rendered prompt", body);
  }
  require(!r.tools.reads_calls() || !r.tools.names.empty(), "reads calls without tools", body);
}

void check_chat_prompt(const CompletionRequest& r, const ServedModel& model,
                       std::string_view body) {
  require(model.tokenizer != nullptr, "accepted a chat for a model without tokenizer", body);
  const json j = parse_accepted(body);
  require(j.contains("messages") && j["messages"].is_array() && !j["messages"].empty(),
          "accepted a chat without messages", body);
  if (uses_tools(j)) {
    check_tool_prompt(r, model, j, body);
    return;
  }
  std::vector<ChatMessage> messages;
  for (const json& m : j["messages"]) {
    require(m.is_object() && m.contains("role") && m["role"].is_string() && m.contains("content"),
            "accepted a message without a role or content", body);
    messages.push_back({m["role"].get<std::string>(), content_text(m["content"], body)});
  }
  require(r.prompt == model.tokenizer->encode(render_chatml(messages), model.add_bos),
          "the prompt is not the tokenized ChatML of the messages", body);
  if (j.contains("max_completion_tokens") && !j["max_completion_tokens"].is_null()) {
    require(j["max_completion_tokens"] == json(r.sampling.max_tokens),
            "max_tokens is not max_completion_tokens", body);
  }
}

}  // namespace

void check_refusal(const ApiError& e, std::string_view body) {
  require(e.status() == 400 || (e.status() == 404 && e.param() == "model"),
          "a refusal is neither 400 nor a 404 for the 'model' field", body);
  require(e.what()[0] != '\0', "a refusal has an empty message", body);
  // Names from the body are quoted as excerpts: a 500 KB field name is not echoed whole.
  require(std::string_view(e.what()).size() <= 1024 && e.param().size() <= 256,
          "a refusal echoes unbounded input", body);
  try {
    (void)e.to_json().dump();  // strict: throws on invalid UTF-8
  } catch (const json::exception& x) {
    fail(std::string("a refusal does not render as JSON: ") + x.what(), body);
  }
}

void check_accepted_completion(const CompletionRequest& r, const ServedModel& model,
                               std::string_view body) {
  require(r.api == ApiKind::kCompletions, "a completion request is not marked kCompletions", body);
  check_fits_and_valid(r, model, body);
  check_completion_prompt(r, model, body);
  check_round_trip(r, model, body);
}

void check_accepted_chat(const CompletionRequest& r, const ServedModel& model,
                         std::string_view body) {
  require(r.api == ApiKind::kChat, "a chat request is not marked kChat", body);
  check_fits_and_valid(r, model, body);
  check_chat_prompt(r, model, body);
  check_round_trip(r, model, body);
}

}  // namespace infergate::fuzz

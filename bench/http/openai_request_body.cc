#include "bench/http/openai_request_body.h"

#include <charconv>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>

#include "engine/tokenizer/byte_tokenizer.h"
#include "engine/tokenizer/chat_prompt.h"

namespace infergate {

namespace {

void append_int(std::string& out, int64_t value) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof(digits), value).ptr;
  out.append(digits, end);
}

// Written by hand rather than through nlohmann::json: the body is built on the load
// generator's thread for every request, and a prompt is mostly integers.
void append_token_ids(std::string& out, const std::vector<int32_t>& ids) {
  out += '[';
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i > 0) out += ',';
    append_int(out, ids[i]);
  }
  out += ']';
}

constexpr const char* kIgnoreEos = ",\"ignore_eos\":true";
constexpr const char* kStreamTail = ",\"stream\":true,\"stream_options\":{\"include_usage\":true}}";

}  // namespace

OpenAiRequestBody::OpenAiRequestBody(const std::string& api, const std::string& model,
                                     int32_t vocab_size, const SamplingSpec& sampling,
                                     std::optional<DatasetTokenizer> tokenizer,
                                     std::shared_ptr<const StructuredRequests> structured,
                                     bool constrain)
    : chat_(api == "chat"),
      model_json_(nlohmann::json(model).dump()),
      tokenizer_(std::move(tokenizer)),
      sampling_(sampling),
      structured_(std::move(structured)),
      constrain_(constrain) {
  if (!sampling.is_default()) {
    sampling_json_ = ",\"temperature\":" + nlohmann::json(sampling.temperature).dump() +
                     ",\"top_k\":" + std::to_string(sampling.top_k) +
                     ",\"top_p\":" + nlohmann::json(sampling.top_p).dump() + ",\"seed\":";
  }
  if (api != "chat" && api != "completions") {
    throw std::invalid_argument("openai target: api \"" + api +
                                "\" is not one of completions, chat");
  }
  // The byte tokenizer's vocabulary is synthetic: its pieces are no text a server would read
  // back one token per id, which ChatPromptText's spelling is.
  if (chat_ && (!tokenizer_ || dynamic_cast<const ByteTokenizer*>(tokenizer_->tokenizer.get()))) {
    chat_text_.emplace(vocab_size);
  }
}

std::string OpenAiRequestBody::message_text(const std::vector<int32_t>& prompt) const {
  if (chat_text_) return (*chat_text_)(prompt);
  return valid_utf8_or_question_marks(tokenizer_->tokenizer->decode(prompt));
}

std::optional<int> OpenAiRequestBody::prompt_tokens(const std::vector<int32_t>& prompt) const {
  if (!chat_) return int(prompt.size());
  // Tools are rendered into the prompt by the server's template, as the client does not.
  if (!tokenizer_ || !tokenizer_->chat || (structured_ && structured_->has_tools())) {
    return std::nullopt;
  }
  try {
    return int(chat_prompt_ids(*tokenizer_->tokenizer, tokenizer_->add_bos, *tokenizer_->chat,
                               {{"user", message_text(prompt)}}, true)
                   .size());
  } catch (const jinja::TemplateError&) {
    return std::nullopt;  // the server refuses the request too, and says why
  }
}

std::string OpenAiRequestBody::operator()(const std::vector<int32_t>& prompt, int max_tokens,
                                          uint64_t index) const {
  std::string body;
  body.reserve(96 + prompt.size() * 6);
  body += "{\"model\":";
  body += model_json_;
  if (chat_) {
    body += ",\"messages\":[{\"role\":\"user\",\"content\":";
    body += nlohmann::json(message_text(prompt)).dump();
    body += "}],\"max_completion_tokens\":";
  } else {
    body += ",\"prompt\":";
    append_token_ids(body, prompt);
    body += ",\"max_tokens\":";
  }
  append_int(body, max_tokens);
  if (!sampling_json_.empty()) {
    body += sampling_json_;
    append_int(body, int64_t(SamplingSpec::request_seed(sampling_.seed, index)));
  }
  if (structured_) {
    // Ends where its structure is complete; plain, only the structure is missing.
    if (constrain_) body += structured_->body_fields(index);
  } else {
    body += kIgnoreEos;
  }
  body += kStreamTail;
  return body;
}

}  // namespace infergate

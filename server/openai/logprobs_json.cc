#include "server/openai/logprobs_json.h"

#include <cmath>
#include <string>

namespace infergate {

namespace {

using nlohmann::json;

// JSON has no -inf, and OpenAI clients expect a number: -9999.0 stands for it, as in vLLM.
json logprob_json(float logprob) { return std::isfinite(logprob) ? json(logprob) : json(-9999.0); }

}  // namespace

LogprobsRenderer::LogprobsRenderer(ApiKind api, const Tokenizer* tokenizer, size_t text_offset)
    : api_(api), tokenizer_(tokenizer), text_offset_(text_offset) {}

std::string LogprobsRenderer::token_text(int32_t id) const {
  return tokenizer_ ? tokenizer_->decode_token(id) : "token_id:" + std::to_string(id);
}

json LogprobsRenderer::chat_entry(int32_t id, float logprob) const {
  const std::string text = token_text(id);
  json bytes = json::array();
  for (unsigned char c : text) bytes.push_back(int(c));
  return {{"token", text}, {"logprob", logprob_json(logprob)}, {"bytes", bytes}};
}

json LogprobsRenderer::completions_shape(const std::vector<int32_t>& ids,
                                         const std::vector<TokenLogprobs>& logprobs) {
  json tokens = json::array(), token_logprobs = json::array(), top = json::array(),
       offsets = json::array();
  for (size_t i = 0; i < ids.size() && i < logprobs.size(); ++i) {
    const std::string text = token_text(ids[i]);
    tokens.push_back(text);
    token_logprobs.push_back(logprob_json(logprobs[i].logprob));
    json alternatives = json::object();
    for (const TokenLogprob& t : logprobs[i].top) {
      alternatives[token_text(t.id)] = logprob_json(t.logprob);
    }
    alternatives[text] = logprob_json(logprobs[i].logprob);
    top.push_back(std::move(alternatives));
    offsets.push_back(text_offset_);
    text_offset_ += text.size();
  }
  return {{"tokens", tokens},
          {"token_logprobs", token_logprobs},
          {"top_logprobs", top},
          {"text_offset", offsets}};
}

json LogprobsRenderer::render(const std::vector<int32_t>& ids,
                              const std::vector<TokenLogprobs>& logprobs) {
  if (api_ == ApiKind::kCompletions) return completions_shape(ids, logprobs);
  json content = json::array();
  for (size_t i = 0; i < ids.size() && i < logprobs.size(); ++i) {
    json entry = chat_entry(ids[i], logprobs[i].logprob);
    json top = json::array();
    for (const TokenLogprob& t : logprobs[i].top) top.push_back(chat_entry(t.id, t.logprob));
    entry["top_logprobs"] = std::move(top);
    content.push_back(std::move(entry));
  }
  return {{"content", content}};
}

}  // namespace infergate

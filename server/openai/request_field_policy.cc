#include "server/openai/request_field_policy.h"

#include <cstdio>
#include <mutex>
#include <set>

#include "common/io/json_excerpt.h"
#include "server/openai/request_fields.h"

namespace infergate {

namespace {

using nlohmann::json;

constexpr auto kBoth = FieldScope::kBoth;
constexpr auto kCompletions = FieldScope::kCompletions;
constexpr auto kChat = FieldScope::kChat;
constexpr auto kSupported = FieldSupport::kSupported;
constexpr auto kIgnored = FieldSupport::kIgnored;
constexpr auto kRefused = FieldSupport::kRefused;

constexpr std::string_view kOldFunctions = "deprecated by OpenAI: use tools and tool_choice";

bool applies(FieldScope scope, ApiKind api) {
  return scope == kBoth || (scope == kCompletions) == (api == ApiKind::kCompletions);
}

// Each ignored field is logged once per process, not once per request.
void warn_ignored(const RequestFieldPolicy& p) {
  static std::mutex mutex;
  static std::set<std::string_view> warned;
  const std::lock_guard lock(mutex);
  if (!warned.insert(p.name).second) return;
  std::fprintf(stderr, "infergate serve: request field '%.*s' accepted and ignored (%.*s)\n",
               int(p.name.size()), p.name.data(), int(p.note.size()), p.note.data());
}

}  // namespace

const std::vector<RequestFieldPolicy>& request_field_policies() {
  static const std::vector<RequestFieldPolicy> policies = {
      {"model", kBoth, kSupported, "the served model's name or an alias (404 otherwise)"},
      {"prompt", kCompletions, kSupported, "text, or an array of token ids"},
      {"messages", kChat, kSupported,
       "text content, tool_calls, tool results; rendered by the model's chat template"},
      {"max_tokens", kBoth, kSupported, ""},
      {"max_completion_tokens", kChat, kSupported, "max_tokens' newer name"},
      {"temperature", kBoth, kSupported, ""},
      {"top_p", kBoth, kSupported, ""},
      {"top_k", kBoth, kSupported, "-1 or 0: off"},
      {"seed", kBoth, kSupported, "choice i of n draws with seed + i"},
      {"n", kBoth, kSupported, "1 to 128 choices; they share the prompt's KV blocks"},
      {"stop", kBoth, kSupported, "up to 4 strings; the text ends before the first"},
      {"stop_token_ids", kBoth, kSupported, ""},
      {"ignore_eos", kBoth, kSupported, ""},
      {"min_tokens", kBoth, kSupported, "EOS, stop_token_ids and stop strings wait for it"},
      {"frequency_penalty", kBoth, kSupported, "[-2, 2], over the output"},
      {"presence_penalty", kBoth, kSupported, "[-2, 2], over the output"},
      {"repetition_penalty", kBoth, kSupported, "> 0, over prompt and output"},
      {"logit_bias", kBoth, kSupported, "up to 1024 ids, each bias in [-100, 100]"},
      {"logprobs", kBoth, kSupported,
       "completions: 0 to 20 alternatives; chat: true/false (the model's raw log-softmax)"},
      {"top_logprobs", kChat, kSupported, "0 to 20, with \"logprobs\": true"},
      {"echo", kCompletions, kSupported, "the prompt's text before the completion"},
      {"stream", kBoth, kSupported, ""},
      {"stream_options", kBoth, kSupported, "include_usage"},
      {"resume_token_ids", kBoth, kSupported, "infergate's: the router migrating a stream"},
      {"kv_transfer", kBoth, kSupported, "infergate's: the prefill/decode handoff"},
      {"user", kBoth, kIgnored, "an end-user id for the provider's abuse monitoring"},
      {"store", kBoth, kIgnored, "OpenAI keeps the completion for its dashboard"},
      {"metadata", kBoth, kIgnored, "tags for stored completions"},
      {"service_tier", kBoth, kIgnored, "OpenAI's processing tier"},
      {"request_id", kBoth, kIgnored, "vLLM's; infergate numbers its own responses"},
      {"suffix", kCompletions, kRefused,
       "text after the insertion point (fill-in-the-middle) "
       "is not supported"},
      {"best_of", kBoth, kRefused, "best_of is not supported (vLLM v1 dropped it too): use n"},
      {"use_beam_search", kBoth, kRefused, "beam search is not implemented"},
      {"length_penalty", kBoth, kRefused, "beam search is not implemented"},
      {"min_p", kBoth, kRefused, "min_p sampling is not implemented"},
      {"prompt_logprobs", kBoth, kRefused,
       "prompt logprobs are not computed (the engine keeps only the rows it samples from)"},
      {"allowed_token_ids", kBoth, kRefused, "allowed_token_ids is not supported"},
      {"bad_words", kBoth, kRefused, "bad_words is not supported"},
      {"include_stop_str_in_output", kBoth, kRefused,
       "the stop string is always left out of the text"},
      {"skip_special_tokens", kBoth, kRefused, "special tokens are always decoded as text"},
      {"spaces_between_special_tokens", kBoth, kRefused, "not configurable"},
      {"truncate_prompt_tokens", kBoth, kRefused, "prompts are never truncated"},
      {"priority", kBoth, kRefused,
       "priority scheduling is not implemented (first come, first "
       "served)"},
      {"logits_processors", kBoth, kRefused, "custom logits processors cannot be loaded"},
      {"response_format", kBoth, kSupported,
       "text, json_object, or json_schema (its schema as the grammar)"},
      {"guided_json", kBoth, kSupported, "a JSON schema (object or text)"},
      {"guided_regex", kBoth, kSupported, "the whole output matches the pattern"},
      {"guided_choice", kBoth, kSupported, "one of up to 1024 strings"},
      {"guided_grammar", kBoth, kSupported, "GBNF (llama.cpp's notation)"},
      {"structured_outputs", kBoth, kSupported,
       "vLLM's newer form: one of json, regex, choice, grammar, json_object"},
      {"tools", kChat, kSupported, "up to 128 functions, shown through the chat template"},
      {"tool_choice", kChat, kSupported,
       "none, auto (calls read back), required or a named function (enforced by a grammar)"},
      {"parallel_tool_calls", kChat, kSupported, "false: required makes exactly one call"},
      {"functions", kChat, kRefused, kOldFunctions},
      {"function_call", kChat, kRefused, kOldFunctions},
      {"add_generation_prompt", kChat, kRefused, "the assistant's turn is always opened"},
      {"continue_final_message", kChat, kRefused, "the assistant's turn is always opened"},
      {"chat_template", kChat, kRefused, "the model's own chat template is always used"},
      {"chat_template_kwargs", kChat, kRefused, "the chat template takes no extra arguments"},
      {"reasoning_effort", kChat, kRefused, "reasoning models are not supported yet"},
      {"modalities", kChat, kRefused, "only text is generated"},
      {"audio", kChat, kRefused, "only text is generated"},
      {"prediction", kChat, kRefused, "predicted outputs are not supported"},
      {"web_search_options", kChat, kRefused, "web search is not supported"},
  };
  return policies;
}

void check_request_fields(const json& request, ApiKind api) {
  static const auto find = [](std::string_view key, ApiKind a) -> const RequestFieldPolicy* {
    for (const RequestFieldPolicy& p : request_field_policies()) {
      if (p.name == key && applies(p.scope, a)) return &p;
    }
    return nullptr;
  };
  for (const auto& [key, value] : request.items()) {
    const RequestFieldPolicy* p = find(key, api);
    if (p == nullptr) {
      const std::string name = text_excerpt(key);  // a 500 KB name is not echoed whole
      throw bad_field(name, "unknown field '" + name + "'");
    }
    if (p->support == kRefused && !value.is_null()) {
      throw bad_field(key, "'" + key + "': " + std::string(p->note));
    }
    if (p->support == kIgnored) warn_ignored(*p);
  }
}

}  // namespace infergate

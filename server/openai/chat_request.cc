#include "server/openai/chat_request.h"

#include "engine/tokenizer/chat_prompt.h"
#include "server/openai/chat_messages.h"
#include "server/openai/request_fields.h"
#include "server/openai/tool_request.h"

namespace infergate {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

bool has_tool_calls(const json& j) {
  if (j.contains("tools")) return true;
  const auto messages = j.find("messages");
  if (messages == j.end() || !messages->is_array()) return false;
  for (const json& m : *messages) {
    if (m.is_object() && m.contains("tool_calls")) return true;
  }
  return false;
}

const ChatTemplate& chat_template(const ServedModel& model) {
  static const ChatTemplate chatml;
  return model.chat ? *model.chat : chatml;
}

// Tools whose calls would be read back need a template whose call layout infergate reads.
void check_tool_format(const ToolRequest& tools, const ServedModel& model) {
  if (!tools.reads_calls() || chat_template(model).tool_call_format() != ToolCallFormat::kNone) {
    return;
  }
  throw bad_field("tools",
                  "the chat template of " + model.name +
                      " writes tool calls in a layout infergate does not read back (it reads "
                      "<tool_call> JSON, as Qwen and Hermes templates write); send tool_choice "
                      "\"none\" to show the tools without reading calls");
}

}  // namespace

ordered_json chat_request_object(const json& j, std::string_view body) {
  if (has_tool_calls(j)) return ordered_json::parse(body);
  ordered_json request = ordered_json::object();
  for (const char* key : {"messages", "tool_choice", "parallel_tool_calls"}) {
    if (j.contains(key)) request[key] = j[key];
  }
  return request;
}

std::vector<int32_t> chat_prompt_ids(const ordered_json& request, const ServedModel& model,
                                     bool add_generation_prompt, const ordered_json& tools) {
  const ordered_json messages = read_chat_messages(request);
  if (!model.tokenizer) {
    throw bad_field("messages", "chat needs a text tokenizer, and " + model.name +
                                    " has none infergate can use (use /v1/completions with "
                                    "token ids)");
  }
  try {
    return chat_prompt_ids(*model.tokenizer, model.add_bos, chat_template(model), messages,
                           add_generation_prompt, tools);
  } catch (const jinja::TemplateError& e) {
    throw bad_field("messages",
                    "the model's chat template refused the conversation: " + std::string(e.what()));
  }
}

CompletionRequest parse_chat_request(std::string_view body, const ServedModel& model) {
  json j = parse_request_object(body, ApiKind::kChat, model);
  const ordered_json request = chat_request_object(j, body);
  CompletionRequest r;
  r.api = ApiKind::kChat;
  r.tools = read_tool_request(request);
  check_tool_format(r.tools, model);
  r.prompt = chat_prompt_ids(request, model, true, r.tools.tools);
  if (j.contains("max_completion_tokens") && !j["max_completion_tokens"].is_null()) {
    if (j.contains("max_tokens")) {
      throw bad_field("max_tokens", "give 'max_completion_tokens' or 'max_tokens', not both");
    }
    j["max_tokens"] = j["max_completion_tokens"];  // checked as max_tokens from here on
  }
  read_shared_fields(j, body, model, r);
  return r;
}

}  // namespace infergate

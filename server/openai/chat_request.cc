#include "server/openai/chat_request.h"

#include <set>

#include "common/io/json_excerpt.h"
#include "engine/tokenizer/chat_prompt.h"
#include "server/openai/request_fields.h"

namespace infergate {

namespace {

using nlohmann::json;

// `content` is a string or OpenAI's array of parts; only text parts are understood.
std::string message_content(const json& content, const std::string& at) {
  if (content.is_string()) return content.get<std::string>();
  if (!content.is_array()) {
    throw bad_field(at, "'" + at + "' must be a string or an array of text parts");
  }
  std::string text;
  for (size_t i = 0; i < content.size(); ++i) {
    const json& part = content[i];
    const std::string part_at = at + "[" + std::to_string(i) + "]";
    // Each member's type is checked before it is read: json::value() throws on a non-string.
    const bool text_part = part.is_object() && part.contains("type") && part["type"] == "text" &&
                           part.contains("text") && part["text"].is_string();
    if (!text_part) {
      throw bad_field(part_at, "'" + part_at +
                                   "' must be {\"type\": \"text\", \"text\": ...} (other content "
                                   "types are not supported)");
    }
    text += part["text"].get<std::string>();
  }
  return text;
}

ChatMessage read_message(const json& m, size_t i) {
  const std::string at = "messages[" + std::to_string(i) + "]";
  if (!m.is_object()) throw bad_field(at, "'" + at + "' must be an object");
  static const std::set<std::string> roles = {"system", "developer", "user", "assistant", "tool"};
  if (!m.contains("role") || !m["role"].is_string() || !roles.count(m["role"].get<std::string>())) {
    throw bad_field(at + ".role", "'" + at +
                                      ".role' must be one of system, developer, user, "
                                      "assistant, tool");
  }
  for (const auto& [key, value] : m.items()) {
    if (key != "role" && key != "content" && key != "name") {
      const std::string name = at + "." + text_excerpt(key);  // a 500 KB key is not echoed
      throw bad_field(name, "unknown field '" + name + "'");
    }
  }
  if (!m.contains("content")) throw bad_field(at + ".content", "'" + at + ".content' is required");
  return {m["role"].get<std::string>(), message_content(m["content"], at + ".content")};
}

std::vector<ChatMessage> read_messages(const json& j) {
  if (!j.contains("messages")) throw bad_field("messages", "'messages' is required");
  const json& v = j["messages"];
  if (!v.is_array()) throw bad_field("messages", "'messages' must be an array");
  if (v.empty()) throw bad_field("messages", "'messages' is empty");
  std::vector<ChatMessage> messages;
  for (size_t i = 0; i < v.size(); ++i) messages.push_back(read_message(v[i], i));
  return messages;
}

}  // namespace

std::vector<int32_t> chat_prompt_ids(const json& j, const ServedModel& model,
                                     bool add_generation_prompt) {
  const std::vector<ChatMessage> messages = read_messages(j);
  if (!model.tokenizer) {
    throw bad_field("messages", "chat needs a text tokenizer, and " + model.name +
                                    " has none infergate can use (use /v1/completions with "
                                    "token ids)");
  }
  static const ChatTemplate chatml;
  try {
    return chat_prompt_ids(*model.tokenizer, model.add_bos, model.chat ? *model.chat : chatml,
                           messages, add_generation_prompt);
  } catch (const jinja::TemplateError& e) {
    throw bad_field("messages",
                    "the model's chat template refused the conversation: " + std::string(e.what()));
  }
}

CompletionRequest parse_chat_request(std::string_view body, const ServedModel& model) {
  json j = parse_request_object(body, ApiKind::kChat, model);
  std::vector<int32_t> prompt = chat_prompt_ids(j, model, true);
  if (j.contains("max_completion_tokens") && !j["max_completion_tokens"].is_null()) {
    if (j.contains("max_tokens")) {
      throw bad_field("max_tokens", "give 'max_completion_tokens' or 'max_tokens', not both");
    }
    j["max_tokens"] = j["max_completion_tokens"];  // checked as max_tokens from here on
  }
  CompletionRequest r;
  r.api = ApiKind::kChat;
  r.prompt = std::move(prompt);
  read_shared_fields(j, body, model, r);
  return r;
}

}  // namespace infergate

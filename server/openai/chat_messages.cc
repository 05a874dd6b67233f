#include "server/openai/chat_messages.h"

#include <set>
#include <string>

#include "common/io/json_excerpt.h"
#include "server/openai/request_fields.h"

namespace infergate {

namespace {

using json = nlohmann::ordered_json;

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

std::string string_member(const json& object, const std::string& key, const std::string& at) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_string()) {
    throw bad_field(at + "." + key, "'" + at + "." + key + "' must be a string");
  }
  return it->get<std::string>();
}

// Arguments come as JSON text (OpenAI's shape) or an object; templates get the object.
json call_arguments(const json& function, const std::string& at) {
  const std::string field = at + ".arguments";
  const auto it = function.find("arguments");
  if (it == function.end()) return json::object();
  json arguments = *it;
  if (it->is_string()) arguments = json::parse(it->get<std::string>(), nullptr, false);
  if (!arguments.is_object()) {
    throw bad_field(field, "'" + field + "' must be the JSON text of an object");
  }
  return arguments;
}

json read_tool_call(const json& call, const std::string& at) {
  if (!call.is_object() || !call.contains("function") || !call["function"].is_object()) {
    throw bad_field(at, "'" + at +
                            "' must be {\"id\": ..., \"type\": \"function\", \"function\": "
                            "{\"name\": ..., \"arguments\": ...}}");
  }
  if (call.contains("type") && call["type"] != "function") {
    throw bad_field(at + ".type", "'" + at + ".type' must be \"function\"");
  }
  const json& function = call["function"];
  json read = {{"type", "function"},
               {"function",
                {{"name", string_member(function, "name", at + ".function")},
                 {"arguments", call_arguments(function, at + ".function")}}}};
  if (call.contains("id")) read["id"] = string_member(call, "id", at);
  return read;
}

json read_tool_calls(const json& calls, const std::string& at) {
  if (!calls.is_array()) throw bad_field(at, "'" + at + "' must be an array");
  if (calls.size() > kMaxToolCallsPerMessage) {
    throw bad_field(at, "'" + at + "' has " + std::to_string(calls.size()) + " calls; at most " +
                            std::to_string(kMaxToolCallsPerMessage));
  }
  json read = json::array();
  for (size_t i = 0; i < calls.size(); ++i) {
    read.push_back(read_tool_call(calls[i], at + "[" + std::to_string(i) + "]"));
  }
  return read;
}

std::string read_role(const json& m, const std::string& at) {
  static const std::set<std::string> roles = {"system", "developer", "user", "assistant", "tool"};
  if (!m.contains("role") || !m["role"].is_string() || !roles.count(m["role"].get<std::string>())) {
    throw bad_field(at + ".role", "'" + at +
                                      ".role' must be one of system, developer, user, "
                                      "assistant, tool");
  }
  return m["role"].get<std::string>();
}

void check_keys(const json& m, const std::string& role, const std::string& at) {
  for (const auto& [key, value] : m.items()) {
    const bool known = key == "role" || key == "content" || key == "name" ||
                       (key == "tool_calls" && role == "assistant") ||
                       (key == "tool_call_id" && role == "tool");
    if (!known) {
      const std::string name = at + "." + text_excerpt(key);  // a 500 KB key is not echoed
      throw bad_field(name, "unknown field '" + name + "'");
    }
  }
}

json read_message(const json& m, size_t i) {
  const std::string at = "messages[" + std::to_string(i) + "]";
  if (!m.is_object()) throw bad_field(at, "'" + at + "' must be an object");
  const std::string role = read_role(m, at);
  check_keys(m, role, at);
  json read = {{"role", role}};
  const bool calls = m.contains("tool_calls") && !m["tool_calls"].is_null();
  const bool content = m.contains("content") && !m["content"].is_null();
  if (content) {
    read["content"] = message_content(m["content"], at + ".content");
  } else if (calls) {
    read["content"] = nullptr;  // an assistant turn that only calls tools
  } else {
    throw bad_field(at + ".content", "'" + at + ".content' is required");
  }
  if (m.contains("name")) read["name"] = string_member(m, "name", at);
  if (calls) read["tool_calls"] = read_tool_calls(m["tool_calls"], at + ".tool_calls");
  if (m.contains("tool_call_id")) read["tool_call_id"] = string_member(m, "tool_call_id", at);
  return read;
}

}  // namespace

json read_chat_messages(const json& request) {
  if (!request.contains("messages")) throw bad_field("messages", "'messages' is required");
  const json& v = request["messages"];
  if (!v.is_array()) throw bad_field("messages", "'messages' must be an array");
  if (v.empty()) throw bad_field("messages", "'messages' is empty");
  json messages = json::array();
  for (size_t i = 0; i < v.size(); ++i) messages.push_back(read_message(v[i], i));
  return messages;
}

}  // namespace infergate

#include "bench/http/stream_chunk.h"

#include <nlohmann/json.hpp>

namespace infergate {

namespace {

using nlohmann::json;

std::string shortened(std::string_view text, size_t max_chars) {
  if (text.size() <= max_chars) return std::string(text);
  return std::string(text.substr(0, max_chars)) + "...";
}

std::string string_member(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

void read_tool_calls(const json& delta, StreamChunk& c) {
  const auto calls = delta.find("tool_calls");
  if (calls == delta.end() || !calls->is_array()) return;
  for (const json& call : *calls) {
    if (!call.is_object()) continue;
    ToolCallDelta d;
    const auto index = call.find("index");
    d.index = index != call.end() && index->is_number_integer() ? index->get<int>() : 0;
    const auto function = call.find("function");
    if (function != call.end() && function->is_object()) {
      d.name = string_member(*function, "name");
      d.arguments = string_member(*function, "arguments");
    }
    c.tool_calls.push_back(std::move(d));
  }
}

void read_choice(const json& choice, StreamChunk& c) {
  if (!choice.is_object()) return;
  const auto ids = choice.find("token_ids");
  if (ids != choice.end() && ids->is_array()) {
    c.token_ids = int(ids->size());
    for (const json& id : *ids) {
      if (id.is_number_integer()) c.ids.push_back(id.get<int32_t>());
    }
  }
  c.text = string_member(choice, "text");
  const auto delta = choice.find("delta");
  if (delta != choice.end() && delta->is_object()) {
    c.text += string_member(*delta, "content");
    c.reasoning = string_member(*delta, "reasoning_content");
    if (c.reasoning.empty()) c.reasoning = string_member(*delta, "reasoning");
    read_tool_calls(*delta, c);
  }
  // A call is output too, and so is reasoning (it is generated and counted like the answer).
  c.has_text = !c.text.empty() || !c.tool_calls.empty() || !c.reasoning.empty();
  const auto reason = choice.find("finish_reason");
  if (reason != choice.end() && reason->is_string()) c.finish_reason = reason->get<std::string>();
}

std::optional<StreamUsage> read_usage(const json& j) {
  const auto it = j.find("usage");
  if (it == j.end() || !it->is_object()) return std::nullopt;
  const auto prompt = it->find("prompt_tokens");
  const auto completion = it->find("completion_tokens");
  if (completion == it->end() || !completion->is_number_integer()) return std::nullopt;
  StreamUsage u;
  u.completion_tokens = completion->get<int>();
  if (prompt != it->end() && prompt->is_number_integer()) u.prompt_tokens = prompt->get<int>();
  return u;
}

}  // namespace

StreamChunk parse_stream_chunk(std::string_view data) {
  StreamChunk c;
  if (data == "[DONE]") {
    c.done = true;
    return c;
  }
  const json j = json::parse(data, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) {
    c.error = "a streamed event is not a JSON object: " + shortened(data, 120);
    return c;
  }
  if (j.contains("error")) {
    c.error = "the server reported an error mid-stream: " + error_message_of(data);
    return c;
  }
  const auto choices = j.find("choices");
  if (choices != j.end() && choices->is_array() && !choices->empty()) read_choice((*choices)[0], c);
  c.usage = read_usage(j);
  if (const auto kv = j.find("kv_transfer"); kv != j.end())
    c.kv_transfer = kv_transfer_from_json(*kv);
  return c;
}

std::string error_message_of(std::string_view body, size_t max_chars) {
  const json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_object()) {
    for (const char* key : {"error", "message", "detail"}) {
      const auto it = j.find(key);
      if (it == j.end()) continue;
      if (it->is_string()) return shortened(it->get<std::string>(), max_chars);
      if (it->is_object() && it->contains("message") && (*it)["message"].is_string()) {
        return shortened((*it)["message"].get<std::string>(), max_chars);
      }
    }
  }
  return shortened(body, max_chars);
}

}  // namespace infergate

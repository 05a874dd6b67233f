#include "router/routed_request.h"

#include <algorithm>

#include <nlohmann/json.hpp>
#include <string>

#include "common/openai/openai_error.h"
#include "router/policy/prefix_hashes.h"

namespace infergate {

namespace {

using nlohmann::json;

// A chat's messages as one text: role and content of each, as a template would lay them out;
// parts that are not text are skipped.
std::string chat_text(const json& messages) {
  std::string text;
  if (!messages.is_array()) return text;
  for (const json& m : messages) {
    if (!m.is_object()) continue;
    const auto role = m.find("role"), content = m.find("content");
    if (role != m.end() && role->is_string()) text += role->get_ref<const std::string&>();
    text += '\n';
    if (content == m.end()) continue;
    if (content->is_string()) text += content->get_ref<const std::string&>();
    if (!content->is_array()) continue;
    for (const json& part : *content) {
      const auto t = part.is_object() ? part.find("text") : part.end();
      if (part.is_object() && t != part.end() && t->is_string()) {
        text += t->get_ref<const std::string&>();
      }
    }
  }
  return text;
}

std::vector<uint64_t> prompt_prefix(const json& prompt, int chunk_bytes, int block_size) {
  if (prompt.is_string()) {
    return text_prefix_hashes(prompt.get_ref<const std::string&>(), chunk_bytes);
  }
  if (!prompt.is_array() || prompt.empty()) return {};
  if (prompt.front().is_string() || prompt.front().is_array()) {  // a batch: its first prompt
    return prompt_prefix(prompt.front(), chunk_bytes, block_size);
  }
  std::vector<int32_t> tokens;
  tokens.reserve(prompt.size());
  for (const json& t : prompt) {
    if (!t.is_number_integer()) return {};  // the replica will say what is wrong
    tokens.push_back(int32_t(t.get<int64_t>()));
  }
  return token_prefix_hashes(tokens, block_size);
}

}  // namespace

RoutedRequest read_routed_request(std::string_view body, bool chat, int chunk_bytes,
                                  int token_block_size) {
  const json j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    throw ApiError(400, "the request body must be a JSON object");
  }
  RoutedRequest r;
  const auto stream = j.find("stream");
  r.stream = stream != j.end() && stream->is_boolean() && stream->get<bool>();
  const auto n = j.find("n");
  if (n != j.end() && n->is_number_integer() && n->get<int64_t>() > 1) {
    r.choices = int(std::min<int64_t>(n->get<int64_t>(), 1 << 20));
  }
  if (chat) {
    const auto messages = j.find("messages");
    if (messages != j.end()) r.prefix = text_prefix_hashes(chat_text(*messages), chunk_bytes);
  } else {
    const auto prompt = j.find("prompt");
    if (prompt != j.end()) r.prefix = prompt_prefix(*prompt, chunk_bytes, token_block_size);
  }
  return r;
}

}  // namespace infergate

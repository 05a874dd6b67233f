#include "server/openai/tool_call_parser.h"

#include <algorithm>
#include <optional>

#include <nlohmann/json.hpp>

#include "common/io/json_text.h"

namespace infergate {

namespace {

constexpr std::string_view kOpen = "<tool_call>";
constexpr std::string_view kClose = "</tool_call>";
constexpr std::string_view kSpace = " \t\n\r";

std::string_view trimmed(std::string_view s) {
  const size_t begin = s.find_first_not_of(kSpace);
  if (begin == std::string_view::npos) return {};
  return s.substr(begin, s.find_last_not_of(kSpace) - begin + 1);
}

// The longest tail of `text` that is a proper beginning of "<tool_call>": it may be the tag.
size_t partial_tag_length(std::string_view text) {
  for (size_t n = std::min(kOpen.size() - 1, text.size()); n > 0; --n) {
    if (text.substr(text.size() - n) == kOpen.substr(0, n)) return n;
  }
  return 0;
}

// Whether brackets (outside strings) nest deeper than kMaxJsonDepth: dump() recurses once per
// level, and the model's text is not to be trusted with the stack.
bool nests_too_deep(std::string_view json) {
  int depth = 0;
  for (size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (c == '"') {
      for (++i; i < json.size() && json[i] != '"'; ++i) i += json[i] == '\\';
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

// The call `body` holds: an object naming one of `tool_names`, with object `arguments` (absent
// means none); other keys are ignored. nullopt for anything else.
std::optional<ToolCall> read_call(std::string_view body, const std::set<std::string>& tool_names) {
  body = trimmed(body);
  if (nests_too_deep(body)) return std::nullopt;
  const auto j = nlohmann::ordered_json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return std::nullopt;  // a parse error is `discarded`, not an object
  const auto name = j.find("name");
  if (name == j.end() || !name->is_string()) return std::nullopt;
  const auto& name_text = name->get_ref<const std::string&>();
  if (tool_names.count(name_text) == 0) return std::nullopt;
  const auto arguments = j.find("arguments");
  if (arguments == j.end()) return ToolCall{name_text, "{}"};
  if (!arguments->is_object()) return std::nullopt;
  // The parser took only valid UTF-8, so `replace` never replaces; it only rules out throwing.
  return ToolCall{
      name_text, arguments->dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace)};
}

}  // namespace

ToolCallParser::ToolCallParser(std::set<std::string> tool_names)
    : tool_names_(std::move(tool_names)) {}

ToolCallParser::Output ToolCallParser::push(std::string_view text) {
  Output out;
  pending_ += text;
  while (in_call_ ? close_call(out) : open_call(out)) {
  }
  return out;
}

ToolCallParser::Output ToolCallParser::finish() {
  Output out;
  // A call never closed was not a call; whitespace held after a call ends the answer: dropped.
  emit_text(in_call_ ? std::string(kOpen) + pending_ : pending_, out);
  pending_.clear();
  in_call_ = false;
  after_call_ = false;
  held_space_.clear();
  return out;
}

bool ToolCallParser::open_call(Output& out) {
  const size_t tag = pending_.find(kOpen);
  // Outside a call pending_ is at most a partial tag plus the new piece: no text is searched twice.
  const size_t release =
      tag != std::string::npos ? tag : pending_.size() - partial_tag_length(pending_);
  emit_text(std::string_view(pending_).substr(0, release), out);
  if (tag == std::string::npos) {
    pending_.erase(0, release);
    return false;
  }
  pending_.erase(0, tag + kOpen.size());
  in_call_ = true;
  searched_ = 0;
  return true;
}

bool ToolCallParser::close_call(Output& out) {
  // A closing tag may straddle what was searched and what is new.
  const size_t from = searched_ - std::min(searched_, kClose.size() - 1);
  const size_t tag = pending_.find(kClose, from);
  if (tag == std::string::npos) {
    searched_ = pending_.size();
    return false;
  }
  end_call(std::string_view(pending_).substr(0, tag), out);
  pending_.erase(0, tag + kClose.size());
  in_call_ = false;
  return true;
}

void ToolCallParser::end_call(std::string_view body, Output& out) {
  std::optional<ToolCall> call = read_call(body, tool_names_);
  if (!call) {
    std::string raw(kOpen);
    raw.append(body).append(kClose);
    emit_text(raw, out);  // not a call: content, with the whitespace before it
    return;
  }
  held_space_.clear();  // between calls: dropped
  out.calls.push_back(std::move(*call));
  after_call_ = true;
  called_ = true;
}

void ToolCallParser::emit_text(std::string_view text, Output& out) {
  if (after_call_) {
    const size_t solid = text.find_first_not_of(kSpace);
    held_space_.append(text.substr(0, solid));
    if (solid == std::string_view::npos) return;
    out.content += held_space_;  // content follows the call: its whitespace was content too
    held_space_.clear();
    after_call_ = false;
    text.remove_prefix(solid);
  }
  out.content.append(text);
}

}  // namespace infergate

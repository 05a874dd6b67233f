#include "common/io/json_excerpt.h"

#include <algorithm>
#include <vector>

namespace infergate {

namespace {

using json = nlohmann::json;

// dump() of the string made of the first `max_bytes` of `text` (cut on a UTF-8 character
// boundary), so a huge string is never escaped whole.
std::string quoted_prefix(const std::string& text, size_t max_bytes) {
  size_t end = std::min(text.size(), max_bytes);
  // Back off over continuation bytes (10xxxxxx) to the start of a character.
  while (end < text.size() && end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
    --end;
  return json(text.substr(0, end)).dump(-1, ' ', false, json::error_handler_t::replace);
}

// One open array or object: the node and the next child to write.
struct Frame {
  const json* node;
  json::const_iterator next;
  bool first = true;
};

class ExcerptWriter {
 public:
  explicit ExcerptWriter(size_t max_chars) : max_chars_(max_chars) {}

  // True once more than max_chars characters are written: the excerpt will be cut anyway.
  bool full() const { return text_.size() > max_chars_; }
  void append(const std::string& s) { text_ += s; }

  // Writes a scalar, or the opening bracket of a container and pushes it.
  void open(const json& v, std::vector<Frame>& stack) {
    if (v.is_string()) return append(quoted_prefix(v.get_ref<const std::string&>(), budget()));
    if (v.is_array() || v.is_object()) {
      append(v.is_array() ? "[" : "{");
      stack.push_back({&v, v.cbegin()});
      return;
    }
    append(v.dump());  // numbers, booleans, null, binary: never nested
  }

  // Bytes of a string still worth escaping: enough to exceed the limit, plus a UTF-8 character.
  size_t budget() const { return max_chars_ + 4 - std::min(text_.size(), max_chars_); }

  std::string finish() {
    if (text_.size() <= max_chars_) return text_;
    const size_t keep = max_chars_ >= 3 ? max_chars_ - 3 : 0;
    return text_.substr(0, keep) + "...";
  }

 private:
  size_t max_chars_;
  std::string text_;
};

}  // namespace

std::string json_excerpt(const json& value, size_t max_chars) {
  ExcerptWriter out(max_chars);
  std::vector<Frame> stack;
  out.open(value, stack);
  while (!stack.empty() && !out.full()) {
    Frame& frame = stack.back();
    if (frame.next == frame.node->cend()) {
      out.append(frame.node->is_array() ? "]" : "}");
      stack.pop_back();
      continue;
    }
    if (!frame.first) out.append(",");
    frame.first = false;
    if (frame.node->is_object()) out.append(quoted_prefix(frame.next.key(), out.budget()) + ":");
    const json& child = *frame.next;
    ++frame.next;
    out.open(child, stack);  // may push: `frame` is not used after this
  }
  return out.finish();
}

std::string text_excerpt(std::string_view text, size_t max_chars) {
  if (text.size() <= max_chars) return std::string(text);
  size_t end = max_chars > 3 ? max_chars - 3 : 0;
  // Back off over continuation bytes (10xxxxxx) to the start of a character.
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return std::string(text.substr(0, end)) + "...";
}

}  // namespace infergate

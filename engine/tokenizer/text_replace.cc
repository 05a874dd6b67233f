#include "engine/tokenizer/text_replace.h"

namespace infergate {

std::string replace_all(const std::string& text, const std::string& from, const std::string& to) {
  if (from.empty()) return text;
  std::string out;
  size_t at = 0;
  for (size_t hit = text.find(from); hit != std::string::npos; hit = text.find(from, at)) {
    out.append(text, at, hit - at).append(to);
    at = hit + from.size();
  }
  return out.append(text, at, std::string::npos);
}

}  // namespace infergate

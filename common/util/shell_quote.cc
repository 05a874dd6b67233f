#include "common/util/shell_quote.h"

#include <cctype>

namespace infergate {

std::string shell_quote(std::string_view text) {
  bool safe = !text.empty();
  for (const char c : text) {
    const bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '.' ||
                    c == '_' || c == '-' || c == '+' || c == ',' || c == ':' || c == '=' ||
                    c == '@';
    safe = safe && ok;
  }
  if (safe) return std::string(text);
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

}  // namespace infergate

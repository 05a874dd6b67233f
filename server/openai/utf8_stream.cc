#include "server/openai/utf8_stream.h"

namespace infergate {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

size_t sequence_length(unsigned char lead) {
  if (lead >= 0xC2 && lead <= 0xDF) return 2;
  if (lead >= 0xE0 && lead <= 0xEF) return 3;
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  return 0;  // not a lead byte
}

// Second bytes that keep a sequence valid: no overlongs, surrogates or code points > U+10FFFF.
bool valid_second(unsigned char lead, unsigned char b) {
  switch (lead) {
    case 0xE0:
      return b >= 0xA0 && b <= 0xBF;
    case 0xED:
      return b >= 0x80 && b <= 0x9F;
    case 0xF0:
      return b >= 0x90 && b <= 0xBF;
    case 0xF4:
      return b >= 0x80 && b <= 0x8F;
    default:
      return b >= 0x80 && b <= 0xBF;
  }
}

}  // namespace

void Utf8Stream::push_byte(unsigned char b, std::string& out) {
  if (!pending_.empty()) {
    const auto lead = static_cast<unsigned char>(pending_[0]);
    const bool ok = pending_.size() == 1 ? valid_second(lead, b) : (b >= 0x80 && b <= 0xBF);
    if (ok) {
      pending_.push_back(static_cast<char>(b));
      if (pending_.size() == need_) {
        out += pending_;
        pending_.clear();
      }
      return;
    }
    out += kReplacement;  // the broken sequence; `b` starts afresh
    pending_.clear();
  }
  if (b < 0x80) {
    out.push_back(static_cast<char>(b));
  } else if ((need_ = sequence_length(b)) != 0) {
    pending_.push_back(static_cast<char>(b));
  } else {
    out += kReplacement;
  }
}

std::string Utf8Stream::push(std::string_view bytes) {
  std::string out;
  for (char c : bytes) push_byte(static_cast<unsigned char>(c), out);
  return out;
}

std::string Utf8Stream::finish() {
  if (pending_.empty()) return "";
  pending_.clear();
  return std::string(kReplacement);
}

}  // namespace infergate

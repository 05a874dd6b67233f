#include "common/http/sse_parser.h"

#include <stdexcept>

namespace infergate {

void SseParser::feed(std::string_view bytes, std::vector<std::string>& events) {
  size_t start = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    const char c = bytes[i];
    if (c != '\r' && c != '\n') continue;
    const bool lf_of_crlf = c == '\n' && after_cr_ && i == start && line_.empty();
    after_cr_ = c == '\r';
    if (!lf_of_crlf) {
      line_.append(bytes.substr(start, i - start));
      end_line(events);
    }
    start = i + 1;
  }
  if (start < bytes.size()) {
    after_cr_ = false;
    line_.append(bytes.substr(start));
    if (line_.size() > kMaxLineBytes) {
      throw std::runtime_error("an SSE line is longer than " + std::to_string(kMaxLineBytes) +
                               " bytes");
    }
  }
}

void SseParser::end_line(std::vector<std::string>& events) {
  std::string_view line = line_;
  if (line.empty()) {
    dispatch(events);
  } else if (line.front() != ':') {  // ':' starts a comment
    const size_t colon = line.find(':');
    const std::string_view field = line.substr(0, colon);
    std::string_view value = colon == std::string_view::npos ? "" : line.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    if (field == "data") {
      if (has_data_) data_ += '\n';
      data_.append(value);
      has_data_ = true;
    }
  }
  line_.clear();
}

void SseParser::dispatch(std::vector<std::string>& events) {
  if (!has_data_) return;  // a blank line after comments or other fields only
  events.push_back(std::move(data_));
  data_.clear();
  has_data_ = false;
}

}  // namespace infergate

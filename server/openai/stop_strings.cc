#include "server/openai/stop_strings.h"

#include <algorithm>

namespace infergate {

StopStrings::StopStrings(std::vector<std::string> stops) : stops_(std::move(stops)) {}

std::string StopStrings::push(std::string_view text) {
  if (stopped_) return "";
  pending_ += text;
  size_t first = std::string::npos;
  for (const std::string& s : stops_) first = std::min(first, pending_.find(s));
  if (first != std::string::npos) {
    stopped_ = true;
    std::string out = pending_.substr(0, first);
    pending_.clear();
    return out;
  }
  const size_t keep = held_back_length();
  std::string out = pending_.substr(0, pending_.size() - keep);
  pending_.erase(0, pending_.size() - keep);
  return out;
}

std::string StopStrings::pass(std::string_view text) {
  if (stopped_) return "";
  std::string out = std::move(pending_);
  pending_.clear();
  out += text;
  return out;
}

std::string StopStrings::finish() {
  std::string out;
  out.swap(pending_);
  return out;
}

size_t StopStrings::held_back_length() const {
  size_t keep = 0;
  for (const std::string& s : stops_) {
    // A stop string cannot be wholly inside pending_ here, so at most size() - 1 of it is.
    for (size_t n = std::min(s.size() - 1, pending_.size()); n > keep; --n) {
      if (pending_.compare(pending_.size() - n, n, s, 0, n) == 0) {
        keep = n;
        break;
      }
    }
  }
  return keep;
}

}  // namespace infergate

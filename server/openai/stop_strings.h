// OpenAI's `stop`: the output ends just before the first stop string, which is not returned.
// Text streams through here: what might be the start of a stop string is held back until the
// next text shows it is not (so no stream ever shows a stop string's first half).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace infergate {

class StopStrings {
 public:
  explicit StopStrings(std::vector<std::string> stops);

  // The text now safe to send, given `text` more. After a stop string is found, returns the
  // text before it and stopped() is true; later pushes return "".
  std::string push(std::string_view text);
  // Text that comes before stop strings are looked for (min_tokens): released at once, with
  // whatever was held back, and never part of a match.
  std::string pass(std::string_view text);
  // The text held back, when the output ends without a stop string ("" after a stop).
  std::string finish();
  bool stopped() const { return stopped_; }

 private:
  size_t held_back_length() const;  // longest tail of pending_ that starts a stop string

  std::vector<std::string> stops_;
  std::string pending_;  // received, not yet released
  bool stopped_ = false;
};

}  // namespace infergate

// Bytes in, valid UTF-8 out, chunk by chunk. Byte tokens decode to single raw bytes, so a
// character may arrive over several tokens, and a random model emits invalid sequences. JSON
// needs valid UTF-8: complete characters pass, an incomplete tail is held for the next chunk,
// invalid bytes become U+FFFD. The result depends only on the bytes, never on how they were
// split, so streamed chunks concatenate to exactly the non-streamed text.
#pragma once

#include <string>
#include <string_view>

namespace infergate {

class Utf8Stream {
 public:
  // The text `bytes` completes.
  std::string push(std::string_view bytes);
  // Whatever is still held (an incomplete character), as U+FFFD.
  std::string finish();

 private:
  void push_byte(unsigned char b, std::string& out);

  std::string pending_;  // an incomplete character's bytes so far
  size_t need_ = 0;      // its full length
};

}  // namespace infergate

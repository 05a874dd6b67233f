// Server-Sent Events, read incrementally as the WHATWG HTML standard's "event stream
// interpretation" says: lines end in CRLF, LF or CR; "data:" lines (one optional space after
// the colon) accumulate, joined by "\n"; a blank line completes the event; lines starting with
// ':' are comments (keep-alives); other fields (event, id, retry) are skipped. Bytes may arrive
// in any pieces (a CRLF split between two reads included): the events are the same.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace infergate {

class SseParser {
 public:
  // A line longer than this (a broken or hostile stream) throws std::runtime_error.
  static constexpr size_t kMaxLineBytes = size_t(16) << 20;

  // Appends to `events` the data of every event `bytes` completes, in order.
  void feed(std::string_view bytes, std::vector<std::string>& events);

  // True while a partial line or an event without its blank line is held back.
  bool pending() const { return !line_.empty() || has_data_; }

 private:
  void end_line(std::vector<std::string>& events);
  void dispatch(std::vector<std::string>& events);

  std::string line_;       // the line read so far
  std::string data_;       // the event being built: data lines joined by "\n"
  bool has_data_ = false;  // a data field was seen since the last dispatch
  bool after_cr_ = false;  // the last byte was CR: an LF right after it ends nothing
};

}  // namespace infergate

#include "bench/dataset/record_json.h"

#include <set>
#include <vector>

#include "bench/dataset/dataset_error.h"
#include "common/io/json_excerpt.h"
#include "common/io/json_text.h"

namespace infergate {

namespace {

using nlohmann::json;

constexpr size_t kMaxDetailChars = 160;  // "last read: '...'" may quote a megabyte token

// Thrown from the parser's callback, caught below: the callback cannot name the file itself.
struct Refusal {
  std::string problem;
};

// The keys seen so far in each open object (arrays get an empty frame, so depth is one count).
class KeyFrames {
 public:
  void open() {
    if (frames_.size() >= size_t(kMaxJsonDepth)) {
      throw Refusal{"nests deeper than the limit of " + std::to_string(kMaxJsonDepth) +
                    " levels of arrays and objects"};
    }
    frames_.emplace_back();
  }
  void close() { frames_.pop_back(); }
  // The key whose value is being parsed: a number too large for a double is named by it.
  const std::string& last_key() const { return last_key_; }

  void key(const std::string& k) {
    last_key_ = k;
    if (!frames_.back().insert(k).second) {
      throw Refusal{"key " + json_excerpt(json(k)) +
                    " appears twice in one object (each key may appear once)"};
    }
  }

 private:
  std::vector<std::set<std::string>> frames_;
  std::string last_key_;
};

// nlohmann says "[json.exception.parse_error.101] parse error at line 1, column 9: syntax error
// while parsing object - unexpected end of input; expected '}'": we keep what was found and what
// was expected, cut.
std::string syntax_detail(const json::parse_error& e) {
  std::string s = e.what();
  if (const size_t dash = s.find(" - "); dash != std::string::npos) {
    s.erase(0, dash + 3);
  } else if (const size_t colon = s.rfind(": "); colon != std::string::npos) {
    s.erase(0, colon + 2);
  }
  if (s.size() > kMaxDetailChars) s = s.substr(0, kMaxDetailChars - 3) + "...";
  return s;
}

}  // namespace

json parse_record_json(const std::string& text, const std::string& file, int line) {
  KeyFrames frames;
  const json::parser_callback_t check = [&](int, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        frames.open();
        break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        frames.close();
        break;
      case json::parse_event_t::key:
        frames.key(parsed.get<std::string>());
        break;
      case json::parse_event_t::value:
        break;
    }
    return true;
  };
  try {
    return json::parse(text, check);
  } catch (const Refusal& r) {
    throw DatasetError(file, line, "not a usable JSON record: " + r.problem);
  } catch (const json::parse_error& e) {
    const size_t byte = e.byte > 0 ? size_t(e.byte) : 1;  // 1-based, as a column
    throw DatasetError(
        file, line,
        "not JSON at byte " + std::to_string(byte) + " of the line: " + syntax_detail(e));
  } catch (const json::out_of_range&) {  // "number overflow parsing '1e309'"
    const std::string where =
        frames.last_key().empty() ? "a number" : json_excerpt(json(frames.last_key()));
    throw DatasetError(file, line,
                       "not a usable JSON record: " + where +
                           " is a number out of range of a double (|x| <= 1.8e308)");
  }
}

}  // namespace infergate

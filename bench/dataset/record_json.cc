#include "bench/dataset/record_json.h"

#include "bench/dataset/dataset_error.h"
#include "common/io/json_excerpt.h"
#include "common/io/json_text.h"
#include "common/io/json_unique_keys.h"

namespace infergate {

namespace {

using nlohmann::json;

constexpr size_t kMaxDetailChars = 160;  // "last read: '...'" may quote a megabyte token

// Thrown from the parser's callback, caught below: the callback cannot name the file itself.
struct Refusal {
  std::string problem;
};

// How deep the parse is and the key whose value comes next (a number too large for a double is
// named by it); duplicate keys are the shared check's (common/io/json_unique_keys.h).
class RecordFrames {
 public:
  void open() {
    if (depth_ >= kMaxJsonDepth) {
      throw Refusal{"nests deeper than the limit of " + std::to_string(kMaxJsonDepth) +
                    " levels of arrays and objects"};
    }
    ++depth_;
  }
  void close() { --depth_; }
  const std::string& last_key() const { return last_key_; }
  void key(const std::string& k) { last_key_ = k; }

 private:
  int depth_ = 0;
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
  RecordFrames frames;
  const json::parser_callback_t unique_keys = unique_keys_callback();
  const json::parser_callback_t check = [&](int depth, json::parse_event_t event, json& parsed) {
    unique_keys(depth, event, parsed);
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
  } catch (const JsonDuplicateKeyError& e) {
    throw DatasetError(file, line,
                       "not a usable JSON record: key " + json_excerpt(json(e.key())) +
                           " appears twice in one object (each key may appear once)");
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

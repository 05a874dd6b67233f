#include "bench/workload/strict_json.h"

#include <set>
#include <vector>

#include "common/io/json_excerpt.h"

namespace infergate {

namespace {

using json = nlohmann::json;

constexpr size_t kMaxKeyChars = 40;
constexpr size_t kMaxPathChars = 100;  // a path 128 levels deep is cut, not its message

// Where the parser is, kept from its callback events: one frame per open array or object.
class PathTracker {
 public:
  explicit PathTracker(std::string root) : root_(std::move(root)) {}

  size_t depth() const { return frames_.size(); }
  void open(bool array) {
    frames_.emplace_back();
    frames_.back().array = array;
  }
  void close() {
    frames_.pop_back();
    element_done();
  }
  // A scalar (or a closed container) finished: the next array element gets the next index.
  void element_done() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
  }
  // Sets the current key; false when the object already had it.
  bool key(const std::string& k) {
    Frame& f = frames_.back();
    f.key = k;
    return f.keys.insert(k).second;
  }

  // The JSON path of the value being parsed now.
  std::string path() const {
    std::string out = root_;
    for (const Frame& f : frames_) {
      if (f.array) {
        out += "[" + std::to_string(f.index) + "]";
      } else if (!f.keys.empty()) {
        out += "." + path_segment(f.key);
      }
    }
    if (out.size() > kMaxPathChars) out = out.substr(0, kMaxPathChars - 3) + "...";
    return out;
  }

 private:
  struct Frame {
    bool array = false;
    size_t index = 0;  // arrays: elements finished so far
    std::string key;   // objects: the member being parsed
    std::set<std::string> keys;
  };
  std::string root_;
  std::vector<Frame> frames_;
};

// nlohmann says "[json.exception.out_of_range.406] number overflow parsing '1e309'".
std::string overflowing_number(const json::out_of_range& e) {
  const std::string what = e.what();
  const size_t open = what.find('\''), close = what.rfind('\'');
  if (open == std::string::npos || close <= open) return "";
  std::string number = what.substr(open + 1, close - open - 1);
  if (number.size() > kJsonExcerptChars) number = number.substr(0, kJsonExcerptChars - 3) + "...";
  return number;
}

}  // namespace

std::string path_segment(const std::string& key) {
  if (key.size() <= kMaxKeyChars) return key;
  return key.substr(0, kMaxKeyChars - 3) + "...";
}

json parse_strict_json(const std::string& text, const std::string& root, int max_depth) {
  PathTracker where(root);
  const std::string limit = "at most " + std::to_string(max_depth) + " levels of nesting";
  const json::parser_callback_t track = [&](int, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        if (where.depth() >= size_t(max_depth)) {
          throw StrictJsonError(where.path(), "", limit, "nests too deep (" + limit + ")");
        }
        where.open(event == json::parse_event_t::array_start);
        break;
      case json::parse_event_t::key:
        if (!where.key(parsed.get<std::string>())) {
          throw StrictJsonError(where.path(), json_excerpt(parsed), "each key once per object",
                                "duplicate key (each key may appear once per object)");
        }
        break;
      case json::parse_event_t::value:
        where.element_done();
        break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        where.close();
        break;
    }
    return true;
  };
  try {
    return json::parse(text, track, /*allow_exceptions=*/true, /*ignore_comments=*/true);
  } catch (const json::out_of_range& e) {
    const std::string number = overflowing_number(e);
    throw StrictJsonError(where.path(), number, "a finite number (|x| <= 1.8e308)",
                          number + " is out of range (a finite number, |x| <= 1.8e308)");
  }
}

}  // namespace infergate

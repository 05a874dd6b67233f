#include "common/io/json_unique_keys.h"

#include "common/io/json_excerpt.h"

namespace infergate {

JsonDuplicateKeyError::JsonDuplicateKeyError(const std::string& key)
    : std::runtime_error("duplicate key '" + text_excerpt(key) +
                         "' (each key may appear once per object)"),
      key_(key) {}

nlohmann::json::parser_callback_t unique_keys_callback() {
  using json = nlohmann::json;
  // One set per open object: a key always belongs to the innermost open object.
  auto open = std::make_shared<std::vector<std::set<std::string>>>();
  return [open](int, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
        open->emplace_back();
        break;
      case json::parse_event_t::object_end:
        if (!open->empty()) open->pop_back();
        break;
      case json::parse_event_t::key:
        if (!open->empty() && !open->back().insert(parsed.get<std::string>()).second) {
          throw JsonDuplicateKeyError(parsed.get<std::string>());
        }
        break;
      default:
        break;
    }
    return true;
  };
}

}  // namespace infergate

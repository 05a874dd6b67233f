#include "engine/tokenizer/jinja/json_value.h"

#include <algorithm>
#include <string>
#include <vector>

#include "engine/tokenizer/jinja/eval_error.h"

namespace infergate::jinja {
namespace {

// An array index as JS orders object keys: a canonical decimal below 2^32 - 1.
bool is_array_index(const std::string& key, uint64_t& index) {
  if (key.empty() || key.size() > 10 || (key.size() > 1 && key[0] == '0')) return false;
  index = 0;
  for (const char c : key) {
    if (c < '0' || c > '9') return false;
    index = index * 10 + static_cast<uint64_t>(c - '0');
  }
  return index < 0xFFFFFFFFull;
}

Value convert(RenderState& state, const nlohmann::ordered_json& json, int depth);

Value convert_object(RenderState& state, const nlohmann::ordered_json& json, int depth) {
  state.check_collection(json.size());
  std::vector<std::pair<uint64_t, const std::string*>> indices;
  Mapping map;
  for (const auto& [key, value] : json.items()) {
    uint64_t index = 0;
    if (is_array_index(key, index)) indices.emplace_back(index, &key);
  }
  std::sort(indices.begin(), indices.end());
  for (const auto& [index, key] : indices) map.set(*key, convert(state, json.at(*key), depth + 1));
  for (const auto& [key, value] : json.items()) {
    uint64_t index = 0;
    if (!is_array_index(key, index)) map.set(key, convert(state, value, depth + 1));
  }
  return state.make_object(std::move(map));
}

Value convert(RenderState& state, const nlohmann::ordered_json& json, int depth) {
  state.check_depth(depth);
  switch (json.type()) {
    case nlohmann::json::value_t::null:
      return Value::null();
    case nlohmann::json::value_t::boolean:
      return Value::boolean(json.get<bool>());
    case nlohmann::json::value_t::number_integer:
      return Value::number(static_cast<double>(json.get<int64_t>()));
    case nlohmann::json::value_t::number_unsigned:
      return Value::number(static_cast<double>(json.get<uint64_t>()));
    case nlohmann::json::value_t::number_float:
      return Value::number(json.get<double>());
    case nlohmann::json::value_t::string:
      return state.make_string(json.get<std::string>());
    case nlohmann::json::value_t::array: {
      state.check_collection(json.size());
      std::vector<Value> items;
      items.reserve(json.size());
      for (const auto& item : json) items.push_back(convert(state, item, depth + 1));
      return state.make_array(std::move(items));
    }
    case nlohmann::json::value_t::object:
      return convert_object(state, json, depth);
    default:
      throw EvalError(std::string("the context holds a JSON ") + json.type_name() +
                      " value, which a template cannot use");
  }
}

}  // namespace

Value value_from_json(RenderState& state, const nlohmann::ordered_json& json) {
  return convert(state, json, 1);
}

}  // namespace infergate::jinja

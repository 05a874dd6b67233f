#include "bench/workload/json_object_reader.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "bench/workload/closest_match.h"
#include "bench/workload/strict_json.h"
#include "bench/workload/workload_error.h"
#include "common/io/json_excerpt.h"

namespace infergate {

namespace {

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

std::string json_text(const nlohmann::json& value) { return json_excerpt(value); }

std::string join_names(const std::vector<std::string>& names) {
  std::string joined;
  for (const std::string& name : names) {
    if (!joined.empty()) joined += ", ";
    joined += name;
  }
  return joined;
}

JsonObjectReader::JsonObjectReader(const nlohmann::json& value, std::string path, std::string file)
    : value_(value), path_(std::move(path)), file_(std::move(file)) {
  if (!value_.is_object())
    throw WorkloadError::wrong_type(file_, path_, json_text(value_), "an object");
}

std::string JsonObjectReader::path_of(const std::string& key) const {
  return path_ + "." + path_segment(key);
}

const nlohmann::json* JsonObjectReader::find(const std::string& key) {
  if (!contains(allowed_, key)) allowed_.push_back(key);
  const auto it = value_.find(key);
  return it == value_.end() ? nullptr : &*it;
}

JsonObjectReader JsonObjectReader::child(const std::string& key) {
  static const nlohmann::json kEmpty = nlohmann::json::object();
  const nlohmann::json* v = find(key);
  return JsonObjectReader(v == nullptr ? kEmpty : *v, path_of(key), file_);
}

const nlohmann::json& JsonObjectReader::get_typed(const std::string& key, bool ok_type,
                                                  const std::string& expected) const {
  const nlohmann::json& v = value_.at(key);
  if (!ok_type) throw WorkloadError::wrong_type(file_, path_of(key), json_text(v), expected);
  return v;
}

std::string JsonObjectReader::get_string(const std::string& key, const std::string& fallback) {
  const nlohmann::json* v = find(key);
  if (v == nullptr) return fallback;
  return get_typed(key, v->is_string(), "a string").get<std::string>();
}

std::string JsonObjectReader::get_choice(const std::string& key, const std::string& fallback,
                                         const std::vector<std::string>& allowed) {
  const std::string choice = get_string(key, fallback);
  if (contains(allowed, choice)) return choice;
  const std::string value = json_text(choice), names = join_names(allowed);
  const std::string suggestion = closest_match(choice, allowed);
  if (suggestion.empty()) throw WorkloadError::not_allowed(file_, path_of(key), value, names);
  throw WorkloadError(
      file_, path_of(key), value, names,
      value + " is not allowed (allowed: " + names + "; did you mean " + suggestion + "?)");
}

bool JsonObjectReader::get_bool(const std::string& key, bool fallback) {
  const nlohmann::json* v = find(key);
  if (v == nullptr) return fallback;
  return get_typed(key, v->is_boolean(), "true or false").get<bool>();
}

std::vector<int> JsonObjectReader::get_int_list(const std::string& key,
                                                const std::vector<int>& fallback) {
  const nlohmann::json* v = find(key);
  if (v == nullptr) return fallback;
  const nlohmann::json& list = get_typed(key, v->is_array(), "an array of integers");
  std::vector<int> out;
  for (size_t i = 0; i < list.size(); ++i) {
    const nlohmann::json& x = list[i];
    const std::string at = path_of(key) + "[" + std::to_string(i) + "]";
    if (!x.is_number_integer())
      throw WorkloadError::wrong_type(file_, at, json_text(x), "an integer");
    if (x.get<int64_t>() < INT32_MIN || x.get<int64_t>() > INT32_MAX) {
      throw WorkloadError::out_of_range(file_, at, json_text(x), "must fit in a 32-bit integer");
    }
    out.push_back(x.get<int>());
  }
  return out;
}

int64_t JsonObjectReader::get_int64(const std::string& key, int64_t fallback) {
  const nlohmann::json* v = find(key);
  if (v == nullptr) return fallback;
  get_typed(key, v->is_number_integer(), "an integer");
  if (v->is_number_unsigned() &&
      v->get<uint64_t>() > uint64_t(std::numeric_limits<int64_t>::max())) {
    throw WorkloadError::out_of_range(file_, path_of(key), json_text(*v),
                                      "must fit in a 64-bit signed integer");
  }
  return v->get<int64_t>();
}

int JsonObjectReader::get_int(const std::string& key, int fallback) {
  const int64_t value = get_int64(key, fallback);
  if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max()) {
    throw WorkloadError::out_of_range(file_, path_of(key), std::to_string(value),
                                      "must fit in a 32-bit integer");
  }
  return static_cast<int>(value);
}

uint64_t JsonObjectReader::get_uint64(const std::string& key, uint64_t fallback) {
  const nlohmann::json* v = find(key);
  if (v == nullptr) return fallback;
  get_typed(key, v->is_number_integer(), "an integer");
  if (v->is_number_unsigned()) return v->get<uint64_t>();
  // Built in code rather than parsed, a non-negative integer may be stored signed.
  if (v->get<int64_t>() < 0) {
    throw WorkloadError::out_of_range(file_, path_of(key), json_text(*v), "must be >= 0");
  }
  return static_cast<uint64_t>(v->get<int64_t>());
}

double JsonObjectReader::get_double(const std::string& key, double fallback) {
  const nlohmann::json* v = find(key);
  if (v == nullptr) return fallback;
  const double value = get_typed(key, v->is_number(), "a number").get<double>();
  if (!std::isfinite(value)) {
    throw WorkloadError::out_of_range(file_, path_of(key), json_text(*v), "must be finite");
  }
  return value;
}

std::optional<double> JsonObjectReader::get_optional_double(const std::string& key) {
  if (find(key) == nullptr) return std::nullopt;
  return get_double(key, 0);
}

void JsonObjectReader::check(bool ok, const std::string& key, const std::string& rule) const {
  if (ok) return;
  const auto it = value_.find(key);
  if (it == value_.end()) throw WorkloadError::missing(file_, path_of(key), rule);
  throw WorkloadError::out_of_range(file_, path_of(key), json_text(*it), rule);
}

void JsonObjectReader::allow(const std::vector<std::string>& keys) {
  for (const std::string& key : keys) {
    if (!contains(allowed_, key)) allowed_.push_back(key);
  }
}

void JsonObjectReader::set_context(std::string context, std::vector<std::string> other_keys) {
  context_ = std::move(context);
  other_keys_ = std::move(other_keys);
}

void JsonObjectReader::finish() const {
  for (const auto& [key, value] : value_.items()) {
    if (contains(allowed_, key)) continue;
    const std::string allowed = join_names(allowed_);
    if (contains(other_keys_, key)) {
      throw WorkloadError(file_, path_of(key), json_text(value), allowed,
                          "not used " + context_ + " (allowed: " + allowed + ")");
    }
    std::vector<std::string> known = allowed_;
    known.insert(known.end(), other_keys_.begin(), other_keys_.end());
    throw WorkloadError::unknown_key(file_, path_of(key), closest_match(key, known), allowed);
  }
}

}  // namespace infergate

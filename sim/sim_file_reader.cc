#include "sim/sim_file_reader.h"

#include <algorithm>
#include <cmath>

#include "common/io/json_excerpt.h"
#include "common/io/json_file.h"

namespace infergate {

SimObjectReader::SimObjectReader(const nlohmann::json& value, std::string file, std::string path)
    : value_(value), file_(std::move(file)), path_(std::move(path)) {
  if (!value_.is_object()) {
    throw SimFileError(file_ + ": " + (path_.empty() ? "(top level)" : path_) +
                       ": must be a JSON object, got " + json_excerpt(value_));
  }
}

std::string SimObjectReader::path_of(const std::string& key) const {
  return path_.empty() ? key : path_ + "." + key;
}

void SimObjectReader::fail(const std::string& key, const std::string& problem) const {
  throw SimFileError(file_ + ": " + path_of(key) + ": " + problem);
}

const nlohmann::json* SimObjectReader::find(const std::string& key) {
  if (std::find(read_.begin(), read_.end(), key) == read_.end()) read_.push_back(key);
  const auto it = value_.find(key);
  return it == value_.end() ? nullptr : &*it;
}

double SimObjectReader::positive_or(const std::string& key, double fallback) {
  const nlohmann::json* v = find(key);
  if (!v) return fallback;
  if (!v->is_number() || !std::isfinite(v->get<double>()) || v->get<double>() <= 0) {
    fail(key, "must be a finite number > 0, got " + json_excerpt(*v));
  }
  return v->get<double>();
}

double SimObjectReader::positive(const std::string& key) {
  if (!has(key)) fail(key, "missing (a finite number > 0)");
  return positive_or(key, 0);
}

double SimObjectReader::non_negative_or(const std::string& key, double fallback) {
  const nlohmann::json* v = find(key);
  if (!v) return fallback;
  if (!v->is_number() || !std::isfinite(v->get<double>()) || v->get<double>() < 0) {
    fail(key, "must be a finite number >= 0, got " + json_excerpt(*v));
  }
  return v->get<double>();
}

int SimObjectReader::integer_or(const std::string& key, int fallback, int lo, int hi) {
  const nlohmann::json* v = find(key);
  if (!v) return fallback;
  if (!v->is_number_integer() || v->get<int64_t>() < lo || v->get<int64_t>() > hi) {
    fail(key, "must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                  "], got " + json_excerpt(*v));
  }
  return int(v->get<int64_t>());
}

std::string SimObjectReader::string_or(const std::string& key, const std::string& fallback) {
  const nlohmann::json* v = find(key);
  if (!v) return fallback;
  if (!v->is_string() || v->get<std::string>().empty()) {
    fail(key, "must be a non-empty string, got " + json_excerpt(*v));
  }
  return v->get<std::string>();
}

std::string SimObjectReader::string(const std::string& key) {
  if (!has(key)) fail(key, "missing (a non-empty string)");
  return string_or(key, "");
}

std::string SimObjectReader::choice(const std::string& key,
                                    const std::vector<std::string>& allowed) {
  const std::string s = string(key);
  if (std::find(allowed.begin(), allowed.end(), s) != allowed.end()) return s;
  std::string list;
  for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
  fail(key, "must be one of " + list + ", got \"" + s + "\"");
}

std::vector<std::string> SimObjectReader::strings_or(const std::string& key) {
  const nlohmann::json* v = find(key);
  std::vector<std::string> out;
  if (!v) return out;
  if (!v->is_array()) fail(key, "must be an array of strings, got " + json_excerpt(*v));
  for (const nlohmann::json& s : *v) {
    if (!s.is_string()) fail(key, "must be an array of strings, got " + json_excerpt(s));
    out.push_back(s.get<std::string>());
  }
  return out;
}

SimObjectReader SimObjectReader::child(const std::string& key) {
  if (!has(key)) fail(key, "missing (an object)");
  return SimObjectReader(*find(key), file_, path_of(key));
}

const nlohmann::json& SimObjectReader::value(const std::string& key) {
  const nlohmann::json* v = find(key);
  if (!v) fail(key, "missing");
  return *v;
}

std::vector<std::string> SimObjectReader::keys() {
  std::vector<std::string> out;
  for (auto it = value_.begin(); it != value_.end(); ++it) {
    find(it.key());
    out.push_back(it.key());
  }
  return out;
}

void SimObjectReader::finish() const {
  for (auto it = value_.begin(); it != value_.end(); ++it) {
    if (std::find(read_.begin(), read_.end(), it.key()) != read_.end()) continue;
    std::vector<std::string> known = read_;
    std::sort(known.begin(), known.end());
    std::string list;
    for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
    fail(it.key(), "unknown key (known here: " + list + ")");
  }
}

nlohmann::json read_sim_json_file(const std::string& path) {
  try {
    return read_json_file(path);
  } catch (const JsonFileError& e) {
    throw SimFileError(e.what());
  }
}

}  // namespace infergate

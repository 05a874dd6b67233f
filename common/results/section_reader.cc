#include "common/results/section_reader.h"

#include <cmath>

namespace infergate {

namespace {

const nlohmann::json& null_json() {
  static const nlohmann::json null;
  return null;
}

}  // namespace

SectionReader::SectionReader(const nlohmann::json& j, std::string source, std::string path)
    : j_(j), source_(std::move(source)), path_(std::move(path)) {}

void SectionReader::fail(const std::string& what) const {
  throw ResultsError(source_ + ": " + path_ + ": " + what);
}

void SectionReader::fail(const std::string& key, const std::string& what) const {
  throw ResultsError(source_ + ": " + path_ + "." + key + ": " + what);
}

bool SectionReader::has(const char* key) const {
  return j_.is_object() && j_.contains(key) && !j_[key].is_null();
}

SectionReader SectionReader::at(const char* key) const {
  expect_object();
  const auto it = j_.find(key);
  return SectionReader(it == j_.end() ? null_json() : *it, source_, path_ + "." + key);
}

double SectionReader::number(const char* key) const { return at(key).as_number(); }
int64_t SectionReader::integer(const char* key) const { return at(key).as_integer(); }
std::string SectionReader::text(const char* key) const { return at(key).as_text(); }

bool SectionReader::flag(const char* key) const {
  const SectionReader v = at(key);
  if (!v.j_.is_boolean()) v.fail(std::string("expected a boolean, got ") + v.j_.type_name());
  return v.j_.get<bool>();
}

SectionReader SectionReader::object(const char* key) const {
  SectionReader v = at(key);
  v.expect_object();
  return v;
}

std::vector<SectionReader> SectionReader::array(const char* key) const {
  return at(key).elements();
}

std::optional<double> SectionReader::optional_number(const char* key) const {
  if (!has(key)) return std::nullopt;
  return number(key);
}

std::optional<int64_t> SectionReader::optional_integer(const char* key) const {
  if (!has(key)) return std::nullopt;
  return integer(key);
}

std::optional<std::string> SectionReader::optional_text(const char* key) const {
  if (!has(key)) return std::nullopt;
  return text(key);
}

double SectionReader::number_or(const char* key, double fallback) const {
  return optional_number(key).value_or(fallback);
}

int64_t SectionReader::integer_or(const char* key, int64_t fallback) const {
  return optional_integer(key).value_or(fallback);
}

std::string SectionReader::text_or(const char* key, const std::string& fallback) const {
  return optional_text(key).value_or(fallback);
}

bool SectionReader::flag_or(const char* key, bool fallback) const {
  return has(key) ? flag(key) : fallback;
}

double SectionReader::as_number() const {
  if (!j_.is_number()) fail(std::string("expected a number, got ") + j_.type_name());
  const double d = j_.get<double>();
  if (!std::isfinite(d)) fail("not a finite number");
  return d;
}

int64_t SectionReader::as_integer() const {
  const double d = as_number();
  // Within the range a double holds exactly, so the conversion is defined and loses nothing.
  if (d != std::floor(d) || std::fabs(d) > 9.007199254740992e15) {
    fail(j_.dump() + " is not a whole number");
  }
  return j_.is_number_integer() ? j_.get<int64_t>() : int64_t(d);
}

std::string SectionReader::as_text() const {
  if (!j_.is_string()) fail(std::string("expected a string, got ") + j_.type_name());
  return j_.get<std::string>();
}

std::vector<SectionReader> SectionReader::elements() const {
  if (!j_.is_array()) fail(std::string("expected an array, got ") + j_.type_name());
  std::vector<SectionReader> out;
  out.reserve(j_.size());
  for (size_t i = 0; i < j_.size(); ++i) {
    out.emplace_back(j_[i], source_, path_ + "[" + std::to_string(i) + "]");
  }
  return out;
}

std::vector<std::pair<std::string, SectionReader>> SectionReader::members() const {
  expect_object();
  std::vector<std::pair<std::string, SectionReader>> out;
  for (auto it = j_.begin(); it != j_.end(); ++it) {
    out.emplace_back(it.key(), SectionReader(it.value(), source_, path_ + "." + it.key()));
  }
  return out;
}

void SectionReader::expect_object() const {
  if (!j_.is_object()) fail(std::string("expected an object, got ") + j_.type_name());
}

}  // namespace infergate

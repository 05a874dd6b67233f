#include "common/imports/import_reader.h"

#include <cmath>

#include "common/imports/import_error.h"

namespace infergate {

bool ImportReader::has(const char* key) const {
  expect_object();
  const auto it = value_->find(key);
  return it != value_->end() && !it->is_null();
}

ImportReader ImportReader::at(const char* key) const {
  expect_object();
  const auto it = value_->find(key);
  if (it == value_->end()) fail(key, "missing (a required key)");
  return {*it, file_, path_ + "." + key};
}

std::optional<ImportReader> ImportReader::find(const char* key) const {
  if (!has(key)) return std::nullopt;
  return at(key);
}

ImportReader ImportReader::element(size_t i) const {
  expect_array();
  if (i >= value_->size()) fail("has no element " + std::to_string(i));
  return {(*value_)[i], file_, path_ + "[" + std::to_string(i) + "]"};
}

const ImportReader& ImportReader::expect_object() const {
  if (!value_->is_object()) fail(std::string("expected an object, got ") + value_->type_name());
  return *this;
}

const ImportReader& ImportReader::expect_array() const {
  if (!value_->is_array()) fail(std::string("expected an array, got ") + value_->type_name());
  return *this;
}

double ImportReader::number() const {
  if (!value_->is_number()) fail(std::string("expected a number, got ") + value_->type_name());
  const double v = value_->get<double>();
  if (!std::isfinite(v)) fail(import_number_text(v) + " is not finite");
  if (v < 0) fail(import_number_text(v) + " is negative (times, rates and counts are >= 0)");
  return v;
}

int64_t ImportReader::count() const {
  const double v = number();
  if (v != std::floor(v) || v > 1e15) fail(import_number_text(v) + " is not a whole count");
  return int64_t(v);
}

std::string ImportReader::string() const {
  if (!value_->is_string()) fail(std::string("expected a string, got ") + value_->type_name());
  return value_->get<std::string>();
}

std::optional<double> ImportReader::optional_number(const char* key) const {
  if (!has(key)) return std::nullopt;
  return at(key).number();
}

std::optional<int64_t> ImportReader::optional_count(const char* key) const {
  if (!has(key)) return std::nullopt;
  return at(key).count();
}

std::optional<std::string> ImportReader::optional_string(const char* key) const {
  if (!has(key)) return std::nullopt;
  return at(key).string();
}

void ImportReader::fail(const std::string& what) const {
  throw ImportError(file_ + ": " + path_ + ": " + what);
}

void ImportReader::fail(const char* key, const std::string& what) const {
  throw ImportError(file_ + ": " + path_ + "." + key + ": " + what);
}

std::string import_number_text(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15) {
    return std::to_string(static_cast<int64_t>(v));
  }
  if (!std::isfinite(v)) return std::isnan(v) ? "NaN" : (v > 0 ? "Infinity" : "-Infinity");
  return nlohmann::json(v).dump();
}

}  // namespace infergate

// Numbers compared by value, and a hash that agrees with JSON equality.
#include "common/json_schema/json_compare.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>

namespace infergate::json_schema {
namespace {

using Json = nlohmann::json;

uint64_t magnitude(const Json& integer) {
  if (integer.is_number_unsigned()) return integer.get<uint64_t>();
  const auto number = integer.get<int64_t>();
  return number < 0 ? 0 - static_cast<uint64_t>(number) : static_cast<uint64_t>(number);
}

}  // namespace

bool is_integral(const Json& value) {
  if (value.is_number_integer()) return true;
  if (!value.is_number_float()) return false;
  const double number = value.get<double>();
  return std::isfinite(number) && std::floor(number) == number;
}

// long double holds every int64, uint64 and double exactly on x86-64 and AArch64.
int compare_numbers(const Json& a, const Json& b) {
  const auto x = a.get<long double>();
  const auto y = b.get<long double>();
  return x < y ? -1 : (x > y ? 1 : 0);
}

bool is_multiple_of(const Json& value, const Json& divisor) {
  if (value.is_number_integer() && divisor.is_number_integer()) {
    return magnitude(value) % magnitude(divisor) == 0;
  }
  const double quotient = value.get<double>() / divisor.get<double>();
  if (!std::isfinite(quotient)) return false;
  const double tolerance =
      std::max(1e-9, std::abs(quotient) * 8 * std::numeric_limits<double>::epsilon());
  return std::abs(quotient - std::nearbyint(quotient)) <= tolerance;
}

std::size_t json_hash(const Json& value) {
  const auto mix = [](std::size_t seed, std::size_t hash) {
    return seed ^ (hash + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
  };
  std::size_t hash =
      static_cast<std::size_t>(value.is_number() ? Json::value_t::number_float : value.type());
  if (value.is_number()) return mix(hash, std::hash<double>{}(value.get<double>()));
  if (value.is_string())
    return mix(hash, std::hash<std::string>{}(value.get_ref<const std::string&>()));
  if (value.is_boolean()) return mix(hash, value.get<bool>());
  if (value.is_array()) {
    for (const Json& item : value) hash = mix(hash, json_hash(item));
  } else if (value.is_object()) {
    for (const auto& [key, member] : value.items()) {
      hash = mix(mix(hash, std::hash<std::string>{}(key)), json_hash(member));
    }
  }
  return hash;
}

}  // namespace infergate::json_schema

// Test data in every element type a communicator carries: small integers written as T and read
// back as doubles, exact in all of them (f16 and bf16 included).
#pragma once

#include <cstdint>
#include <vector>

#include "engine/comm/comm_dtype.h"
#include "kernels/cpu/convert.h"

namespace infergate::test {

template <typename T>
T element(double v) {
  if constexpr (std::is_same_v<T, Float16>) {
    return Float16{f32_to_f16(static_cast<float>(v))};
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    return BFloat16{f32_to_bf16(static_cast<float>(v))};
  } else {
    return static_cast<T>(v);
  }
}

template <typename T>
double value_of(T e) {
  if constexpr (std::is_same_v<T, Float16>) {
    return f16_to_f32(e.bits);
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    return bf16_to_f32(e.bits);
  } else {
    return static_cast<double>(e);
  }
}

template <typename T, typename ValueOf>
std::vector<T> elements(size_t count, ValueOf value_of_index) {
  std::vector<T> v(count);
  for (size_t i = 0; i < count; ++i) v[i] = element<T>(value_of_index(i));
  return v;
}

template <typename T>
std::vector<double> values(const std::vector<T>& v) {
  std::vector<double> out;
  for (const T& e : v) out.push_back(value_of(e));
  return out;
}

}  // namespace infergate::test

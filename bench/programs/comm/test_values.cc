#include "bench/programs/comm/test_values.h"

#include <algorithm>
#include <cstring>

#include "kernels/cpu/convert.h"

namespace infergate {

namespace {

// The integers [0, limit] are all exact in `dtype`.
int64_t exact_integer_limit(CommDType dtype) {
  switch (dtype) {
    case CommDType::kBF16:
      return 256;
    case CommDType::kF16:
      return 2048;
    case CommDType::kU8:
      return 255;
    case CommDType::kF32:
      return int64_t{1} << 24;
    case CommDType::kF64:
    case CommDType::kI32:
    case CommDType::kI64:
      return int64_t{1} << 31;
  }
  return 255;
}

template <typename T>
void put(unsigned char* bytes, size_t index, T v) {
  std::memcpy(bytes + index * sizeof(T), &v, sizeof(T));
}

template <typename T>
T get(const unsigned char* bytes, size_t index) {
  T v;
  std::memcpy(&v, bytes + index * sizeof(T), sizeof(T));
  return v;
}

}  // namespace

TestValues::TestValues(CommDType dtype, int ranks)
    : dtype_(dtype),
      ranks_(std::max(ranks, 1)),
      // 251: prime, so 7 * rank differs between ranks; at least 2, so data is never constant.
      modulus_(std::clamp<int64_t>(exact_integer_limit(dtype) / std::max(ranks, 1), 2, 251)) {}

int64_t TestValues::at(int rank, size_t index) const {
  return (7 * static_cast<int64_t>(rank) + static_cast<int64_t>(index)) % modulus_;
}

int64_t TestValues::sum_over_ranks(size_t index) const {
  int64_t sum = 0;
  for (int r = 0; r < ranks_; ++r) sum += at(r, index);
  return sum;
}

void TestValues::store(unsigned char* bytes, size_t index, int64_t value) const {
  switch (dtype_) {
    case CommDType::kF32:
      return put(bytes, index, static_cast<float>(value));
    case CommDType::kF64:
      return put(bytes, index, static_cast<double>(value));
    case CommDType::kF16:
      return put(bytes, index, f32_to_f16(static_cast<float>(value)));
    case CommDType::kBF16:
      return put(bytes, index, f32_to_bf16(static_cast<float>(value)));
    case CommDType::kI32:
      return put(bytes, index, static_cast<int32_t>(value));
    case CommDType::kI64:
      return put(bytes, index, value);
    case CommDType::kU8:
      return put(bytes, index, static_cast<uint8_t>(value));
  }
}

double TestValues::load(const unsigned char* bytes, size_t index) const {
  switch (dtype_) {
    case CommDType::kF32:
      return get<float>(bytes, index);
    case CommDType::kF64:
      return get<double>(bytes, index);
    case CommDType::kF16:
      return f16_to_f32(get<uint16_t>(bytes, index));
    case CommDType::kBF16:
      return bf16_to_f32(get<uint16_t>(bytes, index));
    case CommDType::kI32:
      return get<int32_t>(bytes, index);
    case CommDType::kI64:
      return static_cast<double>(get<int64_t>(bytes, index));
    case CommDType::kU8:
      return get<uint8_t>(bytes, index);
  }
  return 0;
}

}  // namespace infergate

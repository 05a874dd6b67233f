// The data `infergate bench-comm` sends: small integers, chosen so that every result can be
// checked exactly. A sum over all ranks stays below the largest integer the element type holds
// exactly (256 for bf16, 2048 for f16, 2^24 for f32), so no rounding happens in any order of
// addition, and a wrong block (another rank's, another offset) shows as wrong values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/comm/comm_dtype.h"

namespace infergate {

class TestValues {
 public:
  TestValues(CommDType dtype, int ranks);

  CommDType dtype() const { return dtype_; }
  // Element `index` of rank `rank`'s data: (7 * rank + index) mod modulus().
  int64_t at(int rank, size_t index) const;
  // The sum of at(r, index) over every rank.
  int64_t sum_over_ranks(size_t index) const;
  // Values lie in [0, modulus()); modulus() * ranks stays exact in the element type.
  int64_t modulus() const { return modulus_; }

  // `bytes` gets `count` elements of type dtype(): value(i) for i in [0, count).
  template <typename ValueOf>
  void encode(std::vector<unsigned char>& bytes, size_t count, ValueOf value) const {
    bytes.resize(count * comm_dtype_size(dtype_));
    for (size_t i = 0; i < count; ++i) store(bytes.data(), i, value(i));
  }
  // Element `index` of a buffer of dtype() as a double (NaN stays NaN: never equal).
  double load(const unsigned char* bytes, size_t index) const;

 private:
  void store(unsigned char* bytes, size_t index, int64_t value) const;

  CommDType dtype_;
  int ranks_;
  int64_t modulus_;
};

}  // namespace infergate

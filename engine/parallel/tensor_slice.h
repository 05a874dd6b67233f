// Copies of row or column ranges of a 2-D weight tensor, in its own dtype, for sharding.
#pragma once

#include <cstdint>

#include "kernels/tensor.h"

namespace infergate {

// Rows [begin, begin + count) of `t`, followed by zero rows up to `padded_rows` (>= count).
Tensor slice_rows(const Tensor& t, int64_t begin, int64_t count, int64_t padded_rows = 0);
// Columns [begin, begin + count) of every row. Q8_0 needs both on 32-element block boundaries
// (std::invalid_argument otherwise).
Tensor slice_cols(const Tensor& t, int64_t begin, int64_t count);

}  // namespace infergate

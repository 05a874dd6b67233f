// How all_reduce and reduce_scatter combine the ranks' values. Every backend has these three
// natively (MPI_SUM/MAX/MIN, ncclSum/Max/Min); f16 and bf16 on MPI go through user operations
// that add in fp32 and round once per pairwise step, as NCCL does.
#pragma once

#include <cstdint>
#include <string>

namespace infergate {

enum class ReduceOp : uint8_t { kSum, kMax, kMin };

const char* reduce_op_name(ReduceOp op);  // "sum", "max", "min"
// Throws std::invalid_argument naming the allowed values.
ReduceOp parse_reduce_op(const std::string& name);

}  // namespace infergate

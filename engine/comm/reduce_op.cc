#include "engine/comm/reduce_op.h"

#include <stdexcept>

namespace infergate {

const char* reduce_op_name(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum:
      return "sum";
    case ReduceOp::kMax:
      return "max";
    case ReduceOp::kMin:
      return "min";
  }
  return "?";
}

ReduceOp parse_reduce_op(const std::string& name) {
  if (name == "sum") return ReduceOp::kSum;
  if (name == "max") return ReduceOp::kMax;
  if (name == "min") return ReduceOp::kMin;
  throw std::invalid_argument("unknown reduction '" + name + "' (allowed: sum, max, min)");
}

}  // namespace infergate

#include "engine/comm/mpi_types.h"

#include <algorithm>
#include <mutex>

#include "kernels/cpu/convert.h"

namespace infergate {

namespace {

struct Half {
  static float load(uint16_t h) { return f16_to_f32(h); }
  static uint16_t store(float f) { return f32_to_f16(f); }
};
struct BHalf {
  static float load(uint16_t h) { return bf16_to_f32(h); }
  static uint16_t store(float f) { return f32_to_bf16(f); }
};
struct Sum {
  static float apply(float a, float b) { return a + b; }
};
struct Max {
  static float apply(float a, float b) { return std::max(a, b); }
};
struct Min {
  static float apply(float a, float b) { return std::min(a, b); }
};

// MPI_User_function: inout[i] = in[i] (op) inout[i].
template <typename Format, typename Op>
void reduce_16bit(void* in, void* inout, int* len, MPI_Datatype*) {
  const uint16_t* a = static_cast<const uint16_t*>(in);
  uint16_t* b = static_cast<uint16_t*>(inout);
  for (int i = 0; i < *len; ++i) {
    b[i] = Format::store(Op::apply(Format::load(a[i]), Format::load(b[i])));
  }
}

struct SixteenBitTypes {
  MPI_Datatype f16 = MPI_DATATYPE_NULL, bf16 = MPI_DATATYPE_NULL;
  MPI_Op f16_ops[3] = {}, bf16_ops[3] = {};  // indexed by ReduceOp
};

const SixteenBitTypes& sixteen_bit_types() {
  static SixteenBitTypes t;
  static std::once_flag once;
  std::call_once(once, [] {
    for (MPI_Datatype* type : {&t.f16, &t.bf16}) {
      MPI_Type_contiguous(2, MPI_BYTE, type);
      MPI_Type_commit(type);
    }
    MPI_Op_create(&reduce_16bit<Half, Sum>, 1, &t.f16_ops[0]);
    MPI_Op_create(&reduce_16bit<Half, Max>, 1, &t.f16_ops[1]);
    MPI_Op_create(&reduce_16bit<Half, Min>, 1, &t.f16_ops[2]);
    MPI_Op_create(&reduce_16bit<BHalf, Sum>, 1, &t.bf16_ops[0]);
    MPI_Op_create(&reduce_16bit<BHalf, Max>, 1, &t.bf16_ops[1]);
    MPI_Op_create(&reduce_16bit<BHalf, Min>, 1, &t.bf16_ops[2]);
  });
  return t;
}

}  // namespace

MPI_Datatype mpi_datatype(CommDType dtype) {
  switch (dtype) {
    case CommDType::kF32:
      return MPI_FLOAT;
    case CommDType::kF64:
      return MPI_DOUBLE;
    case CommDType::kF16:
      return sixteen_bit_types().f16;
    case CommDType::kBF16:
      return sixteen_bit_types().bf16;
    case CommDType::kI32:
      return MPI_INT32_T;
    case CommDType::kI64:
      return MPI_INT64_T;
    case CommDType::kU8:
      return MPI_UINT8_T;
  }
  return MPI_DATATYPE_NULL;
}

MPI_Op mpi_op(ReduceOp op, CommDType dtype) {
  const size_t i = static_cast<size_t>(op);
  if (dtype == CommDType::kF16) return sixteen_bit_types().f16_ops[i];
  if (dtype == CommDType::kBF16) return sixteen_bit_types().bf16_ops[i];
  switch (op) {
    case ReduceOp::kSum:
      return MPI_SUM;
    case ReduceOp::kMax:
      return MPI_MAX;
    case ReduceOp::kMin:
      return MPI_MIN;
  }
  return MPI_OP_NULL;
}

}  // namespace infergate

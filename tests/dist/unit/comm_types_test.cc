// The vocabulary of the communicators: element types, operations, spans, reductions.
#include <array>
#include <catch2/catch.hpp>
#include <span>
#include <vector>

#include "engine/comm/comm_op.h"
#include "engine/comm/comm_span.h"
#include "engine/comm/reduce_op.h"

namespace infergate {

using Catch::Matchers::Contains;

TEST_CASE("element types parse from our names and nccl-tests', and reject others by name") {
  CHECK(parse_comm_dtype("float") == CommDType::kF32);
  CHECK(parse_comm_dtype("half") == CommDType::kF16);
  CHECK(parse_comm_dtype("bfloat16") == CommDType::kBF16);
  CHECK(parse_comm_dtype("int64") == CommDType::kI64);
  for (CommDType t : {CommDType::kF32, CommDType::kF64, CommDType::kF16, CommDType::kBF16,
                      CommDType::kI32, CommDType::kI64, CommDType::kU8}) {
    CHECK(parse_comm_dtype(comm_dtype_name(t)) == t);
  }
  CHECK(comm_dtype_size(CommDType::kBF16) == 2);
  CHECK(comm_dtype_size(CommDType::kF64) == 8);
  CHECK_THROWS_WITH(parse_comm_dtype("q8_0"),
                    Contains("unknown element type 'q8_0'") && Contains("bf16|bfloat16"));
}

TEST_CASE("tensor dtypes map to element types, and a block-quantized one is refused") {
  CHECK(comm_dtype_of(DType::kF32) == CommDType::kF32);
  CHECK(comm_dtype_of(DType::kBF16) == CommDType::kBF16);
  CHECK_THROWS_WITH(comm_dtype_of(DType::kQ8_0),
                    Contains("cannot carry tensors of dtype q8_0 (allowed: f32, f16, bf16)"));
  Tensor t = Tensor::zeros(DType::kF16, {3, 5});
  const CommSpan s = comm_span(t);
  CHECK(s.count() == 15);
  CHECK(s.dtype() == CommDType::kF16);
  CHECK(s.bytes() == 30);
}

TEST_CASE("spans take their type and length from the container they view") {
  std::vector<float> v(10);
  const CommSpan s = v;
  CHECK(s.data() == v.data());
  CHECK(s.count() == 10);
  CHECK(s.dtype() == CommDType::kF32);
  const std::vector<BFloat16> halves(4);
  const ConstCommSpan c = halves;  // const data: only a ConstCommSpan
  CHECK(c.dtype() == CommDType::kBF16);
  CHECK(c.bytes() == 8);
  std::array<int64_t, 6> a{};
  const CommSpan tail = CommSpan(a).subspan(2, 3);
  CHECK(tail.data() == &a[2]);
  CHECK(tail.count() == 3);
  static_assert(!std::is_constructible_v<CommSpan, const std::vector<float>&>,
                "a CommSpan writes: it cannot view const data");
  static_assert(!std::is_constructible_v<ConstCommSpan, std::vector<char>&>,
                "char is not an element type");
}

TEST_CASE("operations and reductions have one name each, and unknown ones are listed") {
  for (CommOp op : kAllCommOps) CHECK(parse_comm_op(comm_op_name(op)) == op);
  CHECK_THROWS_WITH(parse_comm_op("allreduce"),
                    Contains("unknown collective 'allreduce' (allowed: all_reduce, all_gather"));
  CHECK(parse_reduce_op("max") == ReduceOp::kMax);
  CHECK_THROWS_WITH(parse_reduce_op("prod"), Contains("(allowed: sum, max, min)"));
}

}  // namespace infergate

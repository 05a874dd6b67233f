// The GPU GEMMs (our tensor-core kernel, cuBLAS, cuBLASLt) against kernels/cpu/linear.h's
// linear_reference (double accumulation), on odd sizes, with a guard after y.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <stdexcept>
#include <vector>

#include "kernels/cpu/convert.h"
#include "kernels/cpu/linear.h"
#include "kernels/cuda/cublas_gemm.h"
#include "kernels/cuda/device_buffer.h"
#include "kernels/cuda/gemm_tensor_core.h"
#include "tests/cuda/cuda_test_util.h"
#include "tests/kernels/test_util.h"

namespace infergate {
namespace {

using cuda::GemmDType;
using GpuGemm = std::function<void(const void* x, const void* w, GemmDType dtype, float* y,
                                   int64_t m, int64_t n, int64_t k, cudaStream_t stream)>;

// x rounded to the dtype too: only the fp32 summation order differs from the reference.
constexpr double kSummationOrderBound = 1e-4;
// Against the unrounded fp32 product: the dtype's own rounding of x and w (2^-8 and 2^-11
// relative per operand, twice per product).
constexpr double kBf16Bound = 1e-2, kF16Bound = 2e-3;
constexpr int64_t kGuard = 64;  // poisoned floats after y that must stay poisoned

struct Shape {
  int64_t m, n, k;
};

// Rows, columns and depth that are not multiples of the 128 x 128 x 32 tiles (m = 1 is
// decode), then an aligned square that takes the cp.async path without any edge.
std::vector<Shape> shapes() {
  std::vector<Shape> out;
  for (int64_t m : {1, 7, 133, 256}) {
    for (int64_t n : {1, 97, 300}) {
      for (int64_t k : {1, 13, 520}) out.push_back({m, n, k});
    }
  }
  out.push_back({256, 256, 256});
  return out;
}

// k % 8 == 0 but x one element off its allocation: the kernel must notice the alignment.
constexpr Shape kMisaligned{64, 72, 256};

uint16_t to_bits(float v, GemmDType dtype) {
  return dtype == GemmDType::kBF16 ? f32_to_bf16(v) : f32_to_f16(v);
}
float from_bits(uint16_t bits, GemmDType dtype) {
  return dtype == GemmDType::kBF16 ? bf16_to_f32(bits) : f16_to_f32(bits);
}

// Values stored as `dtype`: the raw bytes (for the device) and the fp32 values they hold.
struct Stored {
  std::vector<unsigned char> bytes;
  std::vector<float> values;
};

Stored store(const std::vector<float>& v, GemmDType dtype) {
  Stored s;
  s.bytes.resize(v.size() * cuda::gemm_dtype_size(dtype));
  if (dtype == GemmDType::kF32) {
    std::memcpy(s.bytes.data(), v.data(), s.bytes.size());
    s.values = v;
    return s;
  }
  s.values.resize(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    const uint16_t bits = to_bits(v[i], dtype);
    std::memcpy(s.bytes.data() + 2 * i, &bits, 2);
    s.values[i] = from_bits(bits, dtype);
  }
  return s;
}

// A [n, k] weight tensor holding `stored` (fp32 values, or 16-bit patterns).
Tensor weight_tensor(const Stored& stored, GemmDType dtype, int64_t n, int64_t k) {
  Tensor t = Tensor::zeros(cuda::tensor_dtype(dtype), {n, k});
  std::memcpy(t.mutable_raw(), stored.bytes.data(), stored.bytes.size());
  return t;
}

std::vector<float> reference(const std::vector<float>& x, const Tensor& w, int64_t m) {
  std::vector<float> y(size_t(m * w.dim(0)));
  linear_reference(x.data(), m, w, y.data());
  return y;
}

std::vector<float> absolute(std::vector<float> v) {
  for (float& e : v) e = std::fabs(e);
  return v;
}

// max|actual - expected| over max_ij sum_k |x_ik w_jk|: normwise, relative to the size of the
// terms. Unlike max|expected| that scale does not collapse when the few outputs of a small case
// (m = n = 1) happen to cancel, so the bounds hold for every seed. +inf for a NaN or infinity
// (a poisoned element never written).
double gemm_error(const std::vector<float>& actual, const std::vector<float>& expected,
                  const std::vector<float>& magnitude) {
  double diff = 0, scale = 0;
  for (size_t i = 0; i < actual.size(); ++i) {
    if (!std::isfinite(actual[i])) return std::numeric_limits<double>::infinity();
    diff = std::max(diff, std::fabs(double(actual[i]) - double(expected[i])));
    scale = std::max(scale, double(magnitude[i]));
  }
  return diff / scale;
}

// Copies bytes to the device `offset` elements past the allocation's start.
class DeviceOperand {
 public:
  DeviceOperand(const std::vector<unsigned char>& bytes, size_t offset_bytes)
      : buffer_(bytes.size() + offset_bytes), offset_(offset_bytes) {
    std::vector<unsigned char> host(offset_bytes, 0);
    host.insert(host.end(), bytes.begin(), bytes.end());
    buffer_.copy_from_host(host.data());
  }
  const void* get() const { return static_cast<const unsigned char*>(buffer_.data()) + offset_; }

 private:
  cuda::DeviceBytes buffer_;
  size_t offset_;
};

// Runs `gemm` on fresh random operands and checks it against the reference on x rounded to the
// dtype (bound `summation_bound`) and on the unrounded fp32 operands (bound `exact_bound`).
void check_gemm(const GpuGemm& gemm, GemmDType dtype, Shape s, int64_t x_offset, uint32_t seed,
                double summation_bound, double exact_bound) {
  INFO("m=" << s.m << " n=" << s.n << " k=" << s.k << " " << cuda::gemm_dtype_name(dtype)
            << " x offset " << x_offset << " seed " << seed);
  const std::vector<float> x = testing::random_values(s.m * s.k, seed);
  const std::vector<float> w = testing::random_values(s.n * s.k, seed + 1);
  const Stored xs = store(x, dtype), ws = store(w, dtype);
  const std::vector<float> expected_rounded =
      reference(xs.values, weight_tensor(ws, dtype, s.n, s.k), s.m);
  const std::vector<float> expected_exact =
      reference(x, weight_tensor(store(w, GemmDType::kF32), GemmDType::kF32, s.n, s.k), s.m);
  const std::vector<float> magnitude =
      reference(absolute(x),
                weight_tensor(store(absolute(w), GemmDType::kF32), GemmDType::kF32, s.n, s.k), s.m);

  testing::TestStream stream;
  const DeviceOperand dx(xs.bytes, size_t(x_offset) * cuda::gemm_dtype_size(dtype));
  const DeviceOperand dw(ws.bytes, 0);
  cuda::DeviceBuffer<float> dy(size_t(s.m * s.n + kGuard));
  dy.fill_bytes(testing::kPoison);
  gemm(dx.get(), dw.get(), dtype, dy.data(), s.m, s.n, s.k, stream.get());
  stream.sync();
  std::vector<float> y = dy.to_host();

  const auto poisoned = [](float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    return bits == 0xFFFFFFFFu;
  };
  CHECK(std::all_of(y.begin() + s.m * s.n, y.end(), poisoned));  // nothing written past y
  y.resize(size_t(s.m * s.n));
  CHECK(gemm_error(y, expected_rounded, magnitude) <= summation_bound);
  CHECK(gemm_error(y, expected_exact, magnitude) <= exact_bound);
}

// Every shape, then the misaligned x, in one dtype.
void check_all_shapes(const GpuGemm& gemm, GemmDType dtype, double summation_bound,
                      double exact_bound) {
  const uint32_t seed = testing::fresh_seed();
  uint32_t case_seed = seed;
  for (const Shape& s : shapes()) {
    check_gemm(gemm, dtype, s, 0, case_seed += 2, summation_bound, exact_bound);
  }
  check_gemm(gemm, dtype, kMisaligned, 1, case_seed + 2, summation_bound, exact_bound);
}

void check_16_bit(const GpuGemm& gemm) {
  check_all_shapes(gemm, GemmDType::kBF16, kSummationOrderBound, kBf16Bound);
  check_all_shapes(gemm, GemmDType::kF16, kSummationOrderBound, kF16Bound);
}

}  // namespace

TEST_CASE("cuda: gemm_tensor_core matches linear_reference in bf16 and f16, for any m, n, k") {
  check_16_bit(cuda::gemm_tensor_core);
}

TEST_CASE("cuda: CublasGemm::gemm matches linear_reference in bf16, f16 and f32") {
  cuda::CublasGemm cublas;
  const GpuGemm gemm = [&](const void* x, const void* w, GemmDType dtype, float* y, int64_t m,
                           int64_t n, int64_t k,
                           cudaStream_t stream) { cublas.gemm(x, w, dtype, y, m, n, k, stream); };
  check_16_bit(gemm);
  // Full fp32 (no TF32): rounding x changes nothing, so both bounds are fp32's.
  check_all_shapes(gemm, GemmDType::kF32, testing::kF32Tolerance, testing::kF32Tolerance);
}

TEST_CASE("cuda: CublasGemm::gemm_lt matches linear_reference in bf16, f16 and f32") {
  cuda::CublasGemm cublas;
  const GpuGemm gemm = [&](const void* x, const void* w, GemmDType dtype, float* y, int64_t m,
                           int64_t n, int64_t k, cudaStream_t stream) {
    cublas.gemm_lt(x, w, dtype, y, m, n, k, stream);
  };
  check_16_bit(gemm);
  check_all_shapes(gemm, GemmDType::kF32, testing::kF32Tolerance, testing::kF32Tolerance);
  // A second round hits the cached plans; they must still be right.
  check_gemm(gemm, GemmDType::kBF16, {133, 300, 520}, 0, testing::fresh_seed(),
             kSummationOrderBound, kBf16Bound);
}

TEST_CASE("cuda: gemm_tensor_core refuses f32 operands and sizes below 1, by name") {
  CHECK_THROWS_WITH(
      cuda::gemm_tensor_core(nullptr, nullptr, GemmDType::kF32, nullptr, 4, 4, 4, nullptr),
      Catch::Contains("f32"));
  CHECK_THROWS_WITH(
      cuda::gemm_tensor_core(nullptr, nullptr, GemmDType::kBF16, nullptr, 4, 0, 4, nullptr),
      Catch::Contains("n=0"));
  CHECK_THROWS_AS(
      cuda::gemm_tensor_core(nullptr, nullptr, GemmDType::kF16, nullptr, -1, 4, 4, nullptr),
      std::invalid_argument);
}

TEST_CASE("cuda: CublasGemm refuses sizes beyond int, by name") {
  cuda::CublasGemm cublas;
  const int64_t too_big = int64_t(1) << 31;
  CHECK_THROWS_WITH(
      cublas.gemm(nullptr, nullptr, GemmDType::kBF16, nullptr, too_big, 4, 4, nullptr),
      Catch::Contains("m=2147483648"));
  CHECK_THROWS_AS(
      cublas.gemm_lt(nullptr, nullptr, GemmDType::kF16, nullptr, 4, 4, too_big, nullptr),
      std::invalid_argument);
}

}  // namespace infergate

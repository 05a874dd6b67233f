#include "kernels/cuda/device_buffer.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <stdexcept>
#include <string>

#include "kernels/cuda/cuda_check.h"
#include "tests/cuda/cuda_test_util.h"
#include "tests/kernels/test_util.h"

namespace infergate {

TEST_CASE("cuda: a device buffer returns what was copied in, and poisons to NaN") {
  const uint32_t seed = testing::fresh_seed();
  INFO("seed " << seed);
  const std::vector<float> host = testing::random_values(1001, seed);
  cuda::DeviceBuffer<float> buffer(host);
  REQUIRE(buffer.size() == host.size());
  CHECK(buffer.to_host() == host);
  buffer.fill_bytes(testing::kPoison);
  for (float x : buffer.to_host()) REQUIRE(std::isnan(x));
}

TEST_CASE("cuda: a moved device buffer keeps its memory, and a size mismatch is refused") {
  cuda::DeviceBuffer<int32_t> a(std::vector<int32_t>{1, 2, 3});
  cuda::DeviceBuffer<int32_t> b = std::move(a);
  CHECK(a.data() == nullptr);
  CHECK(a.size() == 0);
  CHECK(b.to_host() == std::vector<int32_t>{1, 2, 3});
  CHECK_THROWS_AS(b.copy_from_host(std::vector<int32_t>{1, 2}), std::invalid_argument);
}

TEST_CASE("cuda: a failed CUDA call throws naming the call, file and line") {
  try {
    INFERGATE_CUDA_CHECK(cudaMemcpy(nullptr, nullptr, 4, cudaMemcpyHostToDevice));
    FAIL("no exception");
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    INFO(what);
    CHECK(what.find("cudaMemcpy(nullptr, nullptr, 4, cudaMemcpyHostToDevice)") !=
          std::string::npos);
    CHECK(what.find("device_buffer_test.cc:") != std::string::npos);
  }
}

}  // namespace infergate

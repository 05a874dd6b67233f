// Kernel statistics and the GPU busy fraction against hand-computed cases: constructed records,
// so they run on any machine (the records CUPTI delivers have the same shape).
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "bench/telemetry/kernel_activity.h"

using namespace infergate;

namespace {

constexpr int64_t kMs = 1'000'000;  // ns
constexpr int64_t kT0 = 5000 * kMs;

KernelRecord kernel(const char* name, int64_t start_ms, int64_t end_ms, uint32_t stream = 7) {
  return {name, kT0 + start_ms * kMs, kT0 + end_ms * kMs, 0, stream};
}

double busy(const std::vector<KernelRecord>& records, int64_t begin_ms, int64_t end_ms) {
  return gpu_busy_fraction(records, kT0 + begin_ms * kMs, kT0 + end_ms * kMs);
}

}  // namespace

TEST_CASE("kernel stats count and sum per name, longest total first", "[bench][telemetry]") {
  const std::vector<KernelStats> stats =
      kernel_stats({kernel("gemm", 0, 3), kernel("norm", 3, 4), kernel("gemm", 4, 6),
                    kernel("rope", 6, 7), kernel("norm", 7, 8)});
  REQUIRE(stats.size() == 3);
  CHECK(stats[0].name == "gemm");
  CHECK(stats[0].count == 2);
  CHECK(stats[0].total_ms == Approx(5.0));
  CHECK(stats[1].name == "norm");
  CHECK(stats[1].count == 2);
  CHECK(stats[1].total_ms == Approx(2.0));
  CHECK(stats[2].name == "rope");
  CHECK(stats[2].count == 1);
  CHECK(stats[2].total_ms == Approx(1.0));
}

TEST_CASE("kernel stats break ties by name and are empty without records", "[bench][telemetry]") {
  const std::vector<KernelStats> stats = kernel_stats({kernel("b", 0, 2), kernel("a", 2, 4)});
  REQUIRE(stats.size() == 2);
  CHECK(stats[0].name == "a");
  CHECK(stats[1].name == "b");
  CHECK(kernel_stats({}).empty());
}

TEST_CASE("the busy fraction is the union of kernel time over the window", "[bench][telemetry]") {
  SECTION("back to back and apart") {
    CHECK(busy({kernel("a", 0, 2), kernel("b", 2, 4), kernel("c", 6, 8)}, 0, 10) == Approx(0.6));
  }
  SECTION("overlapping kernels on two streams count once") {
    CHECK(busy({kernel("a", 0, 4, 7), kernel("b", 2, 6, 8)}, 0, 10) == Approx(0.6));
  }
  SECTION("a kernel nested in another adds nothing") {
    CHECK(busy({kernel("outer", 1, 9, 7), kernel("inner", 3, 5, 8)}, 0, 10) == Approx(0.8));
  }
  SECTION("the order of the records does not matter") {
    CHECK(busy({kernel("c", 6, 8), kernel("a", 0, 4, 8), kernel("b", 2, 5)}, 0, 10) == Approx(0.7));
  }
  SECTION("records outside the window are clipped or left out") {
    const std::vector<KernelRecord> r = {kernel("before", -5, -1), kernel("across start", -2, 1),
                                         kernel("inside", 4, 5), kernel("across end", 9, 12),
                                         kernel("after", 11, 15)};
    CHECK(busy(r, 0, 10) == Approx(0.3));
  }
  SECTION("a kernel covering the whole window is 1") {
    CHECK(busy({kernel("long", -1, 20)}, 0, 10) == Approx(1.0));
  }
  SECTION("no kernels, or an empty or inverted window, is 0") {
    CHECK(busy({}, 0, 10) == 0.0);
    CHECK(busy({kernel("a", 0, 2)}, 5, 5) == 0.0);
    CHECK(busy({kernel("a", 0, 2)}, 5, 1) == 0.0);
  }
}

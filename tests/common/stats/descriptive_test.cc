// Descriptive statistics against numpy.percentile's documented definition: rank (n - 1) * p / 100,
// linear between the neighbours.
#include <catch2/catch.hpp>
#include <stdexcept>
#include <vector>

#include "common/stats/descriptive.h"

using namespace infergate;
using Catch::Matchers::WithinRel;

TEST_CASE("mean is the arithmetic mean") {
  const std::vector<double> v = {1, 2, 3, 10};
  CHECK(mean(v) == 4.0);
}

TEST_CASE("percentile interpolates linearly between order statistics as numpy does") {
  std::vector<double> v = {4, 1, 3, 2};                            // sorted 1 2 3 4
  CHECK_THAT(percentile_in_place(v, 95), WithinRel(3.85, 1e-12));  // rank 2.85
  CHECK(percentile_in_place(v, 0) == 1.0);
  CHECK(percentile_in_place(v, 100) == 4.0);
  CHECK_THAT(percentile_in_place(v, 50), WithinRel(2.5, 1e-12));
  CHECK_THAT(percentile_in_place(v, 10), WithinRel(1.3, 1e-12));  // rank 0.3
  std::vector<double> one = {7};
  CHECK(percentile_in_place(one, 99) == 7.0);
}

TEST_CASE("median of odd and even counts") {
  CHECK(median({5, 1, 3}) == 3.0);
  CHECK(median({5, 1, 3, 4}) == 3.5);
}

TEST_CASE("empty samples and percentiles outside 0..100 are rejected") {
  std::vector<double> none;
  std::vector<double> some = {1, 2};
  CHECK_THROWS_AS(mean(none), std::invalid_argument);
  CHECK_THROWS_AS(median(none), std::invalid_argument);
  CHECK_THROWS_AS(percentile_in_place(none, 50), std::invalid_argument);
  CHECK_THROWS_AS(percentile_in_place(some, -1), std::invalid_argument);
  CHECK_THROWS_AS(percentile_in_place(some, 100.5), std::invalid_argument);
}

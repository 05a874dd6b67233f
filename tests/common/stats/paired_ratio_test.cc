#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "common/stats/paired_ratio.h"

using namespace infergate;

TEST_CASE("paired ratio: the geometric mean of the ratios cancels a drift both sides share") {
  // The machine slows from 10 to 20 over the pairs; the candidate is 10% slower in each.
  std::vector<double> base, cand;
  for (int i = 0; i < 8; ++i) {
    base.push_back(10 + 10.0 * i / 7);
    cand.push_back(base.back() * 1.10 * (i % 2 ? 1.01 : 0.99));
  }
  const PairedRatio r = paired_ratio(base, cand, 0.95);
  CHECK(r.pairs == 8);
  CHECK(r.estimate == Approx(1.10 * std::sqrt(1.01 * 0.99) - 1).epsilon(1e-9));
  CHECK(r.interval.lo < r.estimate);
  CHECK(r.interval.hi > r.estimate);
  CHECK(r.interval.lo > 0.08);
  CHECK(r.interval.hi < 0.12);
}

TEST_CASE("paired ratio: the interval is the t interval of the mean log ratio") {
  const std::vector<double> base = {1, 1, 1};
  const std::vector<double> cand = {std::exp(0.1), std::exp(0.2), std::exp(0.3)};
  const PairedRatio r = paired_ratio(base, cand, 0.95);
  CHECK(r.log_sd == Approx(0.1));
  const double half = 4.302652729911275 * 0.1 / std::sqrt(3.0);  // t(2) at 0.975
  CHECK(r.interval.lo == Approx(std::expm1(0.2 - half)));
  CHECK(r.interval.hi == Approx(std::expm1(0.2 + half)));
}

TEST_CASE("paired ratio: unequal sides, one pair, zero or negative values are refused") {
  const std::vector<double> two = {1, 2}, three = {1, 2, 3}, one = {1}, zero = {0, 1};
  CHECK_THROWS_AS(paired_ratio(two, three, 0.95), std::invalid_argument);
  CHECK_THROWS_AS(paired_ratio(one, one, 0.95), std::invalid_argument);
  CHECK_THROWS_AS(paired_ratio(zero, two, 0.95), std::invalid_argument);
  CHECK_THROWS_AS(paired_ratio(two, two, 1.0), std::invalid_argument);
}

TEST_CASE("paired detectable change and pairs needed are one formula both ways") {
  const double sd = 0.05, alpha = 0.01, power = 0.95;
  const int n = pairs_to_detect(0.05, sd, alpha, power);
  CHECK(paired_detectable_change(sd, n, alpha, power) <= 0.05);
  CHECK(paired_detectable_change(sd, n - 1, alpha, power) > 0.05);
  // Halving the spread needs a quarter of the pairs.
  CHECK(pairs_to_detect(0.05, sd / 2, alpha, power) == Approx(n / 4.0).margin(1));
}

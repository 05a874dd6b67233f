// E-Divisive with means: the statistic against a brute-force computation, steps found where
// they are, A/A series left alone at about alpha, determinism per seed, and bad options named.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "common/stats/e_divisive.h"

using namespace infergate;

namespace {

std::vector<double> noise(std::mt19937_64& rng, size_t n, double mean, double sd) {
  std::normal_distribution<double> d(mean, sd);
  std::vector<double> v(n);
  for (double& x : v) x = d(rng);
  return v;
}

std::vector<double> joined(std::vector<double> a, const std::vector<double>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The paper's q-hat for sides [0, tau) and [tau, kappa), by its definition.
double q_hat_by_definition(const std::vector<double>& x, size_t tau, size_t kappa) {
  double between = 0, left = 0, right = 0;
  for (size_t i = 0; i < tau; ++i) {
    for (size_t j = tau; j < kappa; ++j) between += std::fabs(x[i] - x[j]);
  }
  for (size_t i = 0; i < tau; ++i) {
    for (size_t j = i + 1; j < tau; ++j) left += std::fabs(x[i] - x[j]);
  }
  for (size_t i = tau; i < kappa; ++i) {
    for (size_t j = i + 1; j < kappa; ++j) right += std::fabs(x[i] - x[j]);
  }
  const double m = double(tau), n = double(kappa - tau);
  const double e = 2 * between / (m * n) - left / (m * (m - 1) / 2) - right / (n * (n - 1) / 2);
  return m * n / (m + n) * e;
}

}  // namespace

TEST_CASE("e-divisive: the first split's statistic is the definition's maximum") {
  std::mt19937_64 rng(7);
  const std::vector<double> x = joined(noise(rng, 9, 10, 1), noise(rng, 8, 13, 1));
  double best = -1;
  for (size_t tau = 2; tau + 2 <= x.size(); ++tau) {
    best = std::max(best, q_hat_by_definition(x, tau, x.size()));
  }
  const std::vector<EDivisiveSplit> s = e_divisive(x, {});
  REQUIRE(!s.empty());
  CHECK(s.front().index == 9);
  CHECK(s.front().q_hat == Approx(best).epsilon(1e-12));
}

TEST_CASE("e-divisive: on a long series (sorted sums) the statistic is still the definition's") {
  std::mt19937_64 rng(8);
  const std::vector<double> x = joined(noise(rng, 130, 10, 1), noise(rng, 70, 10.8, 1));
  double best = -1;
  size_t at = 0;
  for (size_t tau = 2; tau + 2 <= x.size(); ++tau) {
    const double q = q_hat_by_definition(x, tau, x.size());
    if (q > best) best = q, at = tau;
  }
  const std::vector<EDivisiveSplit> s = e_divisive(x, {});
  REQUIRE(!s.empty());
  CHECK(s.front().index == at);
  CHECK(s.front().q_hat == Approx(best).epsilon(1e-9));
}

TEST_CASE("e-divisive: a 10% step in 3% noise is found where it is") {
  std::mt19937_64 rng(11);
  const std::vector<double> x = joined(noise(rng, 20, 100, 3), noise(rng, 20, 110, 3));
  const std::vector<EDivisiveSplit> s = e_divisive(x, {});
  REQUIRE(s.size() == 1);
  CHECK(s[0].index == 20);
  CHECK(s[0].p_value <= 0.01);
}

TEST_CASE("e-divisive: two steps give two splits in order") {
  std::mt19937_64 rng(12);
  const std::vector<double> x =
      joined(joined(noise(rng, 15, 100, 2), noise(rng, 15, 120, 2)), noise(rng, 15, 95, 2));
  const std::vector<EDivisiveSplit> s = e_divisive(x, {});
  REQUIRE(s.size() == 2);
  CHECK(s[0].index == 15);
  CHECK(s[1].index == 30);
}

TEST_CASE("e-divisive: A/A series split at about alpha") {
  // 400 series of 30 points without a change: at alpha 0.01 about 4 split; a binomial(400, 0.01)
  // stays at or below 11 with probability 0.9997.
  std::mt19937_64 rng(13);
  int split = 0;
  for (int series = 0; series < 400; ++series) {
    EDivisiveOptions o;
    o.alpha = 0.01;
    o.seed = uint64_t(series) + 1;
    split += e_divisive(noise(rng, 30, 100, 3), o).empty() ? 0 : 1;
  }
  INFO(split << " of 400 A/A series split");
  CHECK(split <= 11);
}

TEST_CASE("e-divisive: the same series and seed give the same answer, too short gives none") {
  std::mt19937_64 rng(14);
  const std::vector<double> x = joined(noise(rng, 6, 100, 5), noise(rng, 6, 104, 5));
  EDivisiveOptions o;
  o.alpha = 0.2;
  const std::vector<EDivisiveSplit> a = e_divisive(x, o), b = e_divisive(x, o);
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].index == b[i].index);
    CHECK(a[i].p_value == b[i].p_value);
  }
  CHECK(e_divisive({1, 2, 30}, {}).empty());
  CHECK(e_divisive({}, {}).empty());
}

TEST_CASE("e-divisive: bad options and values are named") {
  EDivisiveOptions o;
  o.alpha = 0;
  CHECK_THROWS_WITH(e_divisive({1, 2, 3, 4}, o), Catch::Contains("alpha must be in (0, 1)"));
  o = {};
  o.permutations = 50;
  CHECK_THROWS_WITH(e_divisive({1, 2, 3, 4}, o), Catch::Contains("use at least 199"));
  o = {};
  o.min_segment = 0;
  CHECK_THROWS_WITH(e_divisive({1, 2, 3, 4}, o), Catch::Contains("min_segment"));
  CHECK_THROWS_WITH(e_divisive({1, NAN, 3, 4}, {}), Catch::Contains("value 1 is not finite"));
}

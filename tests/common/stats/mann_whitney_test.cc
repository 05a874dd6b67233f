// Mann-Whitney U against values derived by hand (the exact null distribution counts
// arrangements: with no overlap only one of C(n1 + n2, n1) is as extreme) and against the
// example in scipy.stats.mannwhitneyu's documentation.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "common/stats/mann_whitney.h"

using namespace infergate;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

std::vector<double> iota_from(double first, int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(first + i);
  return v;
}

}  // namespace

TEST_CASE("three below three: U is 0 and the exact one-sided p is 1 / C(6, 3)") {
  const std::vector<double> x = {1, 2, 3};
  const std::vector<double> y = {4, 5, 6};
  const MannWhitneyResult r = mann_whitney_u(x, y);
  CHECK(r.exact);
  CHECK(r.u == 0);
  CHECK_THAT(r.p_less, WithinRel(1.0 / 20, 1e-12));
  CHECK(r.p_greater == 1.0);
  CHECK_THAT(r.p_two_sided, WithinRel(2.0 / 20, 1e-12));
}

TEST_CASE("fully separated samples of 4 and 5 give exact p of 1/70 and 1/252") {
  const MannWhitneyResult four = mann_whitney_u(iota_from(10, 4), iota_from(0, 4));
  CHECK(four.exact);
  CHECK(four.u == 16);
  CHECK_THAT(four.p_greater, WithinRel(1.0 / 70, 1e-12));
  CHECK(four.p_less == 1.0);
  CHECK_THAT(four.p_two_sided, WithinRel(2.0 / 70, 1e-12));

  const MannWhitneyResult five = mann_whitney_u(iota_from(0, 5), iota_from(10, 5));
  CHECK(five.u == 0);
  CHECK_THAT(five.p_less, WithinRel(1.0 / 252, 1e-12));
  CHECK_THAT(five.p_two_sided, WithinRel(2.0 / 252, 1e-12));
}

TEST_CASE("overlapping samples: the exact p counts every arrangement as extreme") {
  // x = {1, 2, 5}, y = {3, 4, 6}: U = 2 (5 beats 3 and 4). Arrangements with U <= 2 number
  // 1 + 1 + 2 = 4 of 20; with U <= 1, 2 of 20.
  const std::vector<double> x = {1, 2, 5};
  const std::vector<double> y = {3, 4, 6};
  const MannWhitneyResult r = mann_whitney_u(x, y);
  CHECK(r.u == 2);
  CHECK_THAT(r.p_less, WithinRel(4.0 / 20, 1e-12));
  CHECK_THAT(r.p_greater, WithinRel(18.0 / 20, 1e-12));
  CHECK_THAT(r.p_two_sided, WithinRel(8.0 / 20, 1e-12));
}

TEST_CASE("scipy's documented example: exact p 0.1111, asymptotic p 0.11134688653314041") {
  // scipy.stats.mannwhitneyu docs: ages of males and females; U1 = 17. Exact: P(U >= 17) =
  // P(U <= 3) = (1 + 1 + 2 + 3) / C(9, 4) = 7 / 126, two-sided 14 / 126.
  const std::vector<double> males = {19, 22, 16, 29, 24};
  const std::vector<double> females = {20, 11, 17, 12};
  const MannWhitneyResult exact = mann_whitney_u(males, females);
  CHECK(exact.exact);
  CHECK(exact.u == 17);
  CHECK_THAT(exact.p_greater, WithinRel(7.0 / 126, 1e-12));
  CHECK_THAT(exact.p_two_sided, WithinRel(14.0 / 126, 1e-12));

  const MannWhitneyResult asymptotic =
      mann_whitney_u(males, females, MannWhitneyMethod::kAsymptotic);
  CHECK_FALSE(asymptotic.exact);
  CHECK(asymptotic.u == 17);
  CHECK_THAT(asymptotic.p_two_sided, WithinRel(0.11134688653314041, 1e-12));
}

TEST_CASE("ties count half, use the normal approximation and shrink its variance") {
  // Pooled: 1 2 3 3 3 4 5 5; midranks 1 2 4 4 4 6 7.5 7.5. x's rank sum 1 + 2 + 4 + 4 = 11,
  // U = 11 - 4 * 5 / 2 = 1 (the two 3s of x tie the 3 of y). Tie groups of 3 and 2:
  // sum t^3 - t = 24 + 6 = 30. var = 4 * 4 / 12 * (9 - 30 / 56) = 79 / 7; mu = 8.
  // p_less = Phi(-(8 - 1 - 0.5) / sqrt(79 / 7)) = Phi(-1.934858...) = 0.0265039345...
  // p_greater = Phi((1 - 8 - 0.5) / sqrt(79 / 7) ...) upper tail = 0.9872099266...
  const std::vector<double> x = {1, 2, 3, 3};
  const std::vector<double> y = {3, 4, 5, 5};
  const MannWhitneyResult r = mann_whitney_u(x, y);
  CHECK_FALSE(r.exact);
  CHECK(r.u == 1);
  CHECK_THAT(r.p_less, WithinRel(0.026503934550980626, 1e-9));
  CHECK_THAT(r.p_greater, WithinRel(0.987209926636523, 1e-9));
  CHECK_THAT(r.p_two_sided, WithinRel(2 * 0.026503934550980626, 1e-9));
}

TEST_CASE("swapping the samples swaps the one-sided p-values and mirrors U") {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise(0.0, 1.0);
  for (const bool with_ties : {false, true}) {
    for (const auto& [n1, n2] : {std::pair{3, 5}, std::pair{12, 9}, std::pair{60, 70}}) {
      std::vector<double> x, y;
      for (int i = 0; i < n1; ++i) x.push_back(noise(rng) + 0.3);
      for (int i = 0; i < n2; ++i) y.push_back(noise(rng));
      if (with_ties) {
        for (double& v : x) v = std::round(v * 2);
        for (double& v : y) v = std::round(v * 2);
      }
      const MannWhitneyResult xy = mann_whitney_u(x, y);
      const MannWhitneyResult yx = mann_whitney_u(y, x);
      CHECK(xy.exact == yx.exact);
      CHECK(xy.u + yx.u == double(n1) * n2);
      CHECK_THAT(xy.p_greater, WithinRel(yx.p_less, 1e-12));
      CHECK_THAT(xy.p_less, WithinRel(yx.p_greater, 1e-12));
      CHECK_THAT(xy.p_two_sided, WithinRel(yx.p_two_sided, 1e-12));
    }
  }
}

TEST_CASE("exact and asymptotic p-values agree closely for 20 vs 20 without ties") {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> noise(0.0, 1.0);
  for (const double shift : {0.0, 0.4, 0.8, 1.2}) {
    std::vector<double> x, y;
    for (int i = 0; i < 20; ++i) x.push_back(noise(rng) + shift);
    for (int i = 0; i < 20; ++i) y.push_back(noise(rng));
    const MannWhitneyResult exact = mann_whitney_u(x, y, MannWhitneyMethod::kExact);
    const MannWhitneyResult normal = mann_whitney_u(x, y, MannWhitneyMethod::kAsymptotic);
    CHECK(exact.u == normal.u);
    CHECK_THAT(normal.p_greater, WithinAbs(exact.p_greater, 0.005));
    CHECK_THAT(normal.p_less, WithinAbs(exact.p_less, 0.005));
    CHECK_THAT(normal.p_two_sided, WithinAbs(exact.p_two_sided, 0.01));
  }
}

TEST_CASE("the exact distribution is used up to 50 vs 50 and stays accurate far in the tail") {
  // 50 below 50: one arrangement of C(100, 50) = 1.0089134454556419e29.
  const MannWhitneyResult r = mann_whitney_u(iota_from(0, 50), iota_from(100, 50));
  CHECK(r.exact);
  CHECK_THAT(r.p_less, WithinRel(1.0 / 1.0089134454556419e29, 1e-9));
  CHECK(r.p_greater == 1.0);
  CHECK_FALSE(mann_whitney_u(iota_from(0, 51), iota_from(100, 50)).exact);
}

TEST_CASE("one value against one: the exact p of the larger is one half") {
  const std::vector<double> x = {2};
  const std::vector<double> y = {1};
  const MannWhitneyResult r = mann_whitney_u(x, y);
  CHECK(r.u == 1);
  CHECK(r.p_greater == 0.5);
  CHECK(r.p_less == 1.0);
  CHECK(r.p_two_sided == 1.0);
}

TEST_CASE("identical values everywhere give no evidence: every p-value is 1") {
  const std::vector<double> x = {5, 5, 5};
  const std::vector<double> y = {5, 5};
  const MannWhitneyResult r = mann_whitney_u(x, y);
  CHECK(r.u == 3);
  CHECK(r.p_greater == 1.0);
  CHECK(r.p_less == 1.0);
  CHECK(r.p_two_sided == 1.0);
}

TEST_CASE("an empty sample, a NaN, or exact with ties is rejected") {
  const std::vector<double> some = {1, 2};
  const std::vector<double> none;
  const std::vector<double> nan = {1, std::nan("")};
  const std::vector<double> tied = {2, 3};
  CHECK_THROWS_AS(mann_whitney_u(none, some), std::invalid_argument);
  CHECK_THROWS_AS(mann_whitney_u(some, none), std::invalid_argument);
  CHECK_THROWS_AS(mann_whitney_u(some, nan), std::invalid_argument);
  CHECK_THROWS_AS(mann_whitney_u(some, tied, MannWhitneyMethod::kExact), std::invalid_argument);
}

#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <vector>

#include "common/stats/wilcoxon_signed_rank.h"

using namespace infergate;

// Exact values counted by hand (and equal to scipy.stats.wilcoxon's).
TEST_CASE("signed-rank: five positive differences have the smallest exact p, 1/32") {
  const std::vector<double> d = {1, 2, 3, 4, 5};
  const WilcoxonResult r = wilcoxon_signed_rank(d);
  CHECK(r.exact);
  CHECK(r.n == 5);
  CHECK(r.w_plus == 15);
  CHECK(r.p_greater == Approx(1.0 / 32));
  CHECK(r.p_less == Approx(1.0));
}

TEST_CASE("signed-rank: one negative of six gives P(W+ >= 19) = 3/64") {
  // Ranks 1..6, rank 2 negative: W+ = 19. Subsets of {1..6} summing to <= 2: {}, {1}, {2}.
  const std::vector<double> d = {0.01, -0.02, 0.03, 0.04, 0.05, 0.06};
  const WilcoxonResult r = wilcoxon_signed_rank(d);
  CHECK(r.w_plus == 19);
  CHECK(r.p_greater == Approx(3.0 / 64));
  CHECK(r.p_less == Approx(62.0 / 64));  // W+ <= 19: all but the sums 20 and 21
}

TEST_CASE("signed-rank: zero differences are dropped, as scipy's zero_method wilcox") {
  const std::vector<double> d = {0, 1, 2, 0, 3, 4, 5};
  const WilcoxonResult r = wilcoxon_signed_rank(d);
  CHECK(r.n == 5);
  CHECK(r.p_greater == Approx(1.0 / 32));
  const std::vector<double> zeros = {0, 0, 0};
  const WilcoxonResult none = wilcoxon_signed_rank(zeros);
  CHECK(none.n == 0);
  CHECK(none.p_greater == 1);
  CHECK(none.p_less == 1);
}

TEST_CASE("signed-rank: tied magnitudes use mid-ranks and the normal approximation") {
  const std::vector<double> d = {1, -1, 2, 2, 3, 4, 5, 6};
  const WilcoxonResult r = wilcoxon_signed_rank(d);
  CHECK_FALSE(r.exact);
  CHECK(r.w_plus == Approx(1.5 + 3.5 + 3.5 + 5 + 6 + 7 + 8));
  // mean 18, variance 8*9*17/24 - (8-2 + 8-2)/48 = 51 - 0.25; continuity-corrected z.
  const double z = (r.w_plus - 18 - 0.5) / std::sqrt(51 - 0.25);
  CHECK(r.p_greater == Approx(0.5 * std::erfc(z / std::sqrt(2.0))));
}

TEST_CASE("signed-rank: the normal approximation agrees with the exact test for 40 pairs") {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise(0.3, 1.0);
  std::vector<double> d;
  for (int i = 0; i < 40; ++i) d.push_back(noise(rng));
  const WilcoxonResult exact = wilcoxon_signed_rank(d);
  REQUIRE(exact.exact);
  // Same data past the exact limit's reach: duplicate a magnitude to force the approximation.
  std::vector<double> tied = d;
  tied.push_back(-std::fabs(d[0]));
  tied.push_back(std::fabs(d[0]));
  const WilcoxonResult approx = wilcoxon_signed_rank(tied);
  REQUIRE_FALSE(approx.exact);
  CHECK(approx.p_greater == Approx(exact.p_greater).margin(0.01));
}

TEST_CASE("signed-rank: non-finite differences are refused") {
  const std::vector<double> d = {1, NAN, 2};
  CHECK_THROWS_AS(wilcoxon_signed_rank(d), std::invalid_argument);
}

TEST_CASE("signed-rank: the pairs a level needs are those whose smallest p is below it") {
  CHECK(wilcoxon_smallest_p(6) == Approx(1.0 / 64));
  CHECK(wilcoxon_min_pairs(0.05) == 5);  // 1/32 < 0.05, 1/16 is not
  CHECK(wilcoxon_min_pairs(0.01) == 7);  // 1/128 < 0.01, 1/64 is not
}

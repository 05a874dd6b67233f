#include "gates/stats/e_divisive.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "gates/stats/xoshiro256.h"

namespace infergate {
namespace {

struct Candidate {
  size_t segment = 0;  // which current segment
  size_t tau = 0;      // the first point after the split
  double q_hat = -std::numeric_limits<double>::infinity();
};

struct Segment {
  size_t begin = 0, end = 0;
};

// Mean of the pair distances within a side of `count` points whose distances sum to `sum`.
double within_mean(double sum, size_t count) {
  return count < 2 ? 0.0 : sum / (double(count) * double(count - 1) / 2);
}

// The best split of values[seg.begin, seg.end): for every tau and every kappa beyond it, the
// sides [begin, tau) and [tau, kappa). `prefix` is scratch: row k holds the running sums of
// |x_i - x_k| over i < k, so every side's sum grows by one lookup: O(n^2) in all.
Candidate best_split(const std::vector<double>& x, Segment seg, size_t min_segment,
                     std::vector<double>& prefix) {
  Candidate best;
  const size_t n = seg.end - seg.begin;
  if (n < 2 * min_segment) return best;
  const double* v = x.data() + seg.begin;
  prefix.resize(n * (n + 1) / 2);
  for (size_t k = 0; k < n; ++k) {
    double* row = prefix.data() + k * (k + 1) / 2;  // row[i] = sum over i' < i of |v_i' - v_k|
    row[0] = 0;
    for (size_t i = 0; i < k; ++i) row[i + 1] = row[i] + std::fabs(v[i] - v[k]);
  }
  auto row = [&](size_t k) { return prefix.data() + k * (k + 1) / 2; };
  double within_left = 0;  // pair distances within [0, t)
  for (size_t t = 1; t + min_segment <= n; ++t) {
    within_left += row(t - 1)[t - 1];
    if (t < min_segment) continue;
    double between = 0, within_right = 0;
    for (size_t k = t; k < n; ++k) {  // the right side is [t, k]
      between += row(k)[t];
      within_right += row(k)[k] - row(k)[t];
      const size_t r = k - t + 1;
      if (r < min_segment) continue;
      const double e_hat = 2 * between / (double(t) * double(r)) - within_mean(within_left, t) -
                           within_mean(within_right, r);
      const double q = double(t) * double(r) / double(t + r) * e_hat;
      if (q > best.q_hat) best = {0, seg.begin + t, q};
    }
  }
  return best;
}

Candidate best_over(const std::vector<double>& x, const std::vector<Segment>& segments,
                    size_t min_segment, std::vector<double>& prefix) {
  Candidate best;
  for (size_t s = 0; s < segments.size(); ++s) {
    Candidate c = best_split(x, segments[s], min_segment, prefix);
    if (c.q_hat > best.q_hat) best = {s, c.tau, c.q_hat};
  }
  return best;
}

// The permutation p-value of `observed`: the series shuffled within each segment (a change
// already found is not the null's to remove), the best split's q_hat compared with it. Stops
// as soon as the answer cannot be significant any more.
double permutation_p_value(const std::vector<double>& x, const std::vector<Segment>& segments,
                           double observed, const EDivisiveOptions& o, Xoshiro256& rng,
                           std::vector<double>& prefix) {
  const int give_up = int(std::floor(o.alpha * (o.permutations + 1)));  // exceedances allowed
  std::vector<double> shuffled = x;
  int extreme = 0;
  for (int p = 0; p < o.permutations; ++p) {
    for (const Segment& s : segments) {
      for (size_t i = s.end - 1; i > s.begin; --i) {  // Fisher-Yates within the segment
        std::swap(shuffled[i], shuffled[s.begin + rng.index(i - s.begin + 1)]);
      }
    }
    if (best_over(shuffled, segments, o.min_segment, prefix).q_hat >= observed) ++extreme;
    if (extreme >= give_up) return double(extreme + 1) / double(p + 2);  // already > alpha
  }
  return double(extreme + 1) / double(o.permutations + 1);
}

void check(const std::vector<double>& values, const EDivisiveOptions& o) {
  if (!(o.alpha > 0 && o.alpha < 1)) {
    throw std::invalid_argument("e_divisive: alpha must be in (0, 1), got " +
                                std::to_string(o.alpha));
  }
  if (o.permutations < 1) throw std::invalid_argument("e_divisive: permutations must be >= 1");
  if (o.alpha * (o.permutations + 1) < 1) {
    throw std::invalid_argument("e_divisive: " + std::to_string(o.permutations) +
                                " permutations cannot give a p-value at or below alpha " +
                                std::to_string(o.alpha) + "; use at least " +
                                std::to_string(int(std::ceil(1 / o.alpha)) - 1));
  }
  if (o.min_segment < 1) throw std::invalid_argument("e_divisive: min_segment must be >= 1");
  for (size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) {
      throw std::invalid_argument("e_divisive: value " + std::to_string(i) + " is not finite");
    }
  }
}

}  // namespace

std::vector<EDivisiveSplit> e_divisive(const std::vector<double>& values,
                                       const EDivisiveOptions& options) {
  check(values, options);
  std::vector<Segment> segments = {{0, values.size()}};
  std::vector<EDivisiveSplit> splits;
  std::vector<double> prefix;
  Xoshiro256 rng(options.seed);
  while (true) {
    const Candidate c = best_over(values, segments, options.min_segment, prefix);
    if (c.tau == 0) break;  // no segment is long enough to split
    const double p = permutation_p_value(values, segments, c.q_hat, options, rng, prefix);
    if (p > options.alpha) break;
    splits.push_back({c.tau, c.q_hat, p});
    const Segment s = segments[c.segment];
    segments[c.segment] = {s.begin, c.tau};
    segments.insert(segments.begin() + std::ptrdiff_t(c.segment) + 1, Segment{c.tau, s.end});
  }
  std::sort(splits.begin(), splits.end(),
            [](const EDivisiveSplit& a, const EDivisiveSplit& b) { return a.index < b.index; });
  return splits;
}

}  // namespace infergate

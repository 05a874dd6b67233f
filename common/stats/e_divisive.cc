#include "common/stats/e_divisive.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "common/random/xoshiro256.h"

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

struct Scratch {
  std::vector<double> before, after, prefix, tree_sum, tree_count;
  std::vector<size_t> order, rank;
};

// Mean of the pair distances within a side of `count` points whose distances sum to `sum`.
double within_mean(double sum, size_t count) {
  return count < 2 ? 0.0 : sum / (double(count) * double(count - 1) / 2);
}

// Below this many points the pairs are summed directly: faster than sorting there.
constexpr size_t kDirectSums = 64;

// Each point's summed distance to the points before it (`before`) and after it (`after`) in
// v[0, n). Directly for a short segment; otherwise sorted prefix sums give every point's
// distance to all others and a Fenwick tree over the values' ranks the part before it, so
// O(n log n) instead of O(n^2) pairs.
void distance_sums(const double* v, size_t n, Scratch& s) {
  s.before.assign(n, 0.0);
  s.after.assign(n, 0.0);
  if (n <= kDirectSums) {
    for (size_t k = 0; k < n; ++k) {
      for (size_t i = 0; i < k; ++i) {
        const double d = std::fabs(v[i] - v[k]);
        s.before[k] += d;
        s.after[i] += d;
      }
    }
    return;
  }
  s.order.resize(n);
  for (size_t i = 0; i < n; ++i) s.order[i] = i;
  std::sort(s.order.begin(), s.order.end(),
            [v](size_t a, size_t b) { return v[a] < v[b] || (v[a] == v[b] && a < b); });
  s.rank.resize(n);
  s.prefix.assign(n + 1, 0.0);  // of the sorted values
  for (size_t r = 0; r < n; ++r) {
    s.rank[s.order[r]] = r;
    s.prefix[r + 1] = s.prefix[r] + v[s.order[r]];
  }
  s.tree_sum.assign(n + 1, 0.0);  // Fenwick trees over ranks, 1-based
  s.tree_count.assign(n + 1, 0.0);
  double seen_sum = 0;
  for (size_t k = 0; k < n; ++k) {
    const size_t r = s.rank[k];
    const double x = v[k];
    const double all =
        (double(r) * x - s.prefix[r]) + (s.prefix[n] - s.prefix[r + 1] - double(n - r - 1) * x);
    double below_sum = 0, below_count = 0;  // earlier points of lower rank
    for (size_t i = r; i > 0; i -= i & (~i + 1)) {
      below_sum += s.tree_sum[i];
      below_count += s.tree_count[i];
    }
    const double above_count = double(k) - below_count, above_sum = seen_sum - below_sum;
    s.before[k] = (below_count * x - below_sum) + (above_sum - above_count * x);
    s.after[k] = all - s.before[k];
    for (size_t i = r + 1; i <= n; i += i & (~i + 1)) {
      s.tree_sum[i] += x;
      s.tree_count[i] += 1;
    }
    seen_sum += x;
  }
}

// The best split of values[seg.begin, seg.end) into [begin, tau) and [tau, end): moving tau one
// point right moves that point's distances between the sides' sums. O(n log n) time.
Candidate best_split(const std::vector<double>& x, Segment seg, size_t min_segment,
                     Scratch& scratch) {
  Candidate best;
  const size_t n = seg.end - seg.begin;
  if (n < 2 * min_segment) return best;
  distance_sums(x.data() + seg.begin, n, scratch);
  const std::vector<double>& before = scratch.before;
  const std::vector<double>& after = scratch.after;
  double total = 0;  // over all pairs
  for (size_t k = 0; k < n; ++k) total += before[k];
  double between = 0, within_left = 0;
  for (size_t t = 1; t + min_segment <= n; ++t) {
    // Point t - 1 moves from the right side to the left.
    between += after[t - 1] - before[t - 1];
    within_left += before[t - 1];
    if (t < min_segment) continue;
    const size_t r = n - t;
    const double within_right = total - within_left - between;
    const double e_hat = 2 * between / (double(t) * double(r)) - within_mean(within_left, t) -
                         within_mean(within_right, r);
    const double q = double(t) * double(r) / double(n) * e_hat;
    if (q > best.q_hat) best = {0, seg.begin + t, q};
  }
  return best;
}

Candidate best_over(const std::vector<double>& x, const std::vector<Segment>& segments,
                    size_t min_segment, Scratch& scratch) {
  Candidate best;
  for (size_t s = 0; s < segments.size(); ++s) {
    Candidate c = best_split(x, segments[s], min_segment, scratch);
    if (c.q_hat > best.q_hat) best = {s, c.tau, c.q_hat};
  }
  return best;
}

// The permutation p-value of `observed`: the series shuffled within each segment (a change
// already found is not the null's to remove), the best split's q_hat compared with it. Stops
// as soon as the answer cannot be significant any more.
double permutation_p_value(const std::vector<double>& x, const std::vector<Segment>& segments,
                           double observed, const EDivisiveOptions& o, Xoshiro256& rng,
                           Scratch& scratch) {
  const int give_up = int(std::floor(o.alpha * (o.permutations + 1)));  // exceedances allowed
  std::vector<double> shuffled = x;
  int extreme = 0;
  for (int p = 0; p < o.permutations; ++p) {
    for (const Segment& s : segments) {
      for (size_t i = s.end - 1; i > s.begin; --i) {  // Fisher-Yates within the segment
        std::swap(shuffled[i], shuffled[s.begin + rng.index(i - s.begin + 1)]);
      }
    }
    if (best_over(shuffled, segments, o.min_segment, scratch).q_hat >= observed) ++extreme;
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
  Scratch scratch;
  Xoshiro256 rng(options.seed);
  while (true) {
    const Candidate c = best_over(values, segments, options.min_segment, scratch);
    if (c.tau == 0) break;  // no segment is long enough to split
    const double p = permutation_p_value(values, segments, c.q_hat, options, rng, scratch);
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

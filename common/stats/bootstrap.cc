#include "common/stats/bootstrap.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

#include "common/random/xoshiro256.h"
#include "common/stats/descriptive.h"

namespace infergate {
namespace {

// The callable behind percentile_statistic(). The bootstrap recognizes it and takes a
// resample's percentile by counting draws over the repetition's sorted order instead of
// copying the resample and selecting from it: the same value, several times faster.
struct PercentileOf {
  double p;
  double operator()(std::vector<double>& samples) const { return percentile_in_place(samples, p); }
};

// One side's repetitions, checked, with their per-repetition values and resampling scratch.
class Side {
 public:
  Side(const RepetitionSamples& samples, const SampleStatistic& statistic, const char* name)
      : reps_(samples.repetitions),
        statistic_(statistic),
        percentile_(statistic.target<PercentileOf>()) {
    if (reps_.empty()) throw std::invalid_argument(std::string(name) + " has no repetitions");
    values_.reserve(reps_.size());
    for (const std::vector<double>& rep : reps_) {
      if (rep.empty()) {
        throw std::invalid_argument(std::string(name) + " has a repetition without samples");
      }
      if (std::any_of(rep.begin(), rep.end(), [](double v) { return std::isnan(v); })) {
        throw std::invalid_argument(std::string(name) + " has a NaN sample");
      }
      if (rep.size() > 1 && !statistic_) {
        throw std::invalid_argument(std::string(name) +
                                    " has per-request samples but no statistic to summarize them");
      }
      scratch_ = rep;
      values_.push_back(rep.size() == 1 ? rep[0] : statistic_(scratch_));
      if (percentile_) {
        std::vector<uint32_t>& order = sorted_order_.emplace_back(rep.size());
        std::iota(order.begin(), order.end(), 0u);
        std::sort(order.begin(), order.end(),
                  [&](uint32_t a, uint32_t b) { return rep[a] < rep[b]; });
      }
    }
    mean_ = mean(values_);
  }

  double mean_value() const { return mean_; }

  // Mean of the per-repetition values of one hierarchical resample.
  double resampled_mean(Xoshiro256& rng) {
    double sum = 0;
    for (size_t i = 0; i < reps_.size(); ++i) {
      const size_t r = rng.index(reps_.size());
      const std::vector<double>& rep = reps_[r];
      if (rep.size() == 1) {
        sum += rep[0];
      } else if (percentile_) {
        sum += resampled_percentile(rng, rep, sorted_order_[r]);
      } else {
        scratch_.resize(rep.size());
        for (double& v : scratch_) v = rep[rng.index(rep.size())];
        sum += statistic_(scratch_);
      }
    }
    return sum / static_cast<double>(reps_.size());
  }

 private:
  // percentile_in_place of a resample of `rep`, from how often each sample was drawn (the same
  // draws, in the same order, as the general path). Walking the samples in ascending order, a
  // sample drawn c times fills the next c ranks of the sorted resample.
  double resampled_percentile(Xoshiro256& rng, const std::vector<double>& rep,
                              const std::vector<uint32_t>& order) {
    const size_t n = rep.size();
    counts_.assign(n, 0);
    for (size_t k = 0; k < n; ++k) ++counts_[rng.index(n)];
    const double rank = static_cast<double>(n - 1) * percentile_->p / 100.0;
    const size_t lo = static_cast<size_t>(std::floor(rank));
    size_t j = 0;
    size_t filled = counts_[order[0]];  // ranks [0, filled) hold values up to rep[order[j]]
    while (filled <= lo) filled += counts_[order[++j]];
    const double a = rep[order[j]];
    const double fraction = rank - static_cast<double>(lo);
    if (fraction == 0.0) return a;
    if (filled == lo + 1) {  // rank lo + 1 is the next sample drawn at all
      do {
        ++j;
      } while (counts_[order[j]] == 0);
    }
    const double b = rep[order[j]];
    return a + (b - a) * fraction;
  }

  const std::vector<std::vector<double>>& reps_;
  const SampleStatistic& statistic_;
  const PercentileOf* percentile_;                   // null unless the statistic is a percentile
  std::vector<std::vector<uint32_t>> sorted_order_;  // per repetition, when percentile_
  std::vector<double> values_;
  std::vector<double> scratch_;
  std::vector<uint32_t> counts_;
  double mean_ = 0;
};

double relative_change(double baseline, double candidate) {
  if (baseline == 0) {
    if (candidate == 0) return 0;
    return candidate > 0 ? std::numeric_limits<double>::infinity()
                         : -std::numeric_limits<double>::infinity();
  }
  return candidate / baseline - 1.0;
}

}  // namespace

SampleStatistic percentile_statistic(double p) {
  if (!(p >= 0.0 && p <= 100.0)) {
    throw std::invalid_argument("percentile " + std::to_string(p) + " is outside [0, 100]");
  }
  return PercentileOf{p};
}

SampleStatistic mean_statistic() {
  return [](std::vector<double>& samples) { return mean(samples); };
}

RelativeChange bootstrap_relative_change(const RepetitionSamples& baseline,
                                         const RepetitionSamples& candidate,
                                         const SampleStatistic& statistic,
                                         const BootstrapOptions& options) {
  if (options.iterations < 1) {
    throw std::invalid_argument("bootstrap needs at least one iteration");
  }
  if (!(options.confidence > 0.0 && options.confidence < 1.0)) {
    throw std::invalid_argument("bootstrap confidence " + std::to_string(options.confidence) +
                                " is outside (0, 1)");
  }
  Side base(baseline, statistic, "baseline");
  Side cand(candidate, statistic, "candidate");
  if (base.mean_value() == 0) {
    throw std::invalid_argument("baseline mean is 0: relative change is undefined");
  }

  RelativeChange result;
  result.estimate = cand.mean_value() / base.mean_value() - 1.0;

  Xoshiro256 rng(options.seed);
  std::vector<double> changes(static_cast<size_t>(options.iterations));
  for (double& change : changes) {
    const double b = base.resampled_mean(rng);  // baseline first: a fixed order of draws
    change = relative_change(b, cand.resampled_mean(rng));
  }
  const double tail = 100.0 * (1.0 - options.confidence) / 2.0;
  result.interval.lo = percentile_in_place(changes, tail);
  result.interval.hi = percentile_in_place(changes, 100.0 - tail);
  return result;
}

}  // namespace infergate

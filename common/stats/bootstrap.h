// Bootstrap confidence interval of the relative change of a metric between a baseline and a
// candidate, each measured over several repetitions. When a repetition carries its per-request
// samples (latency), the bootstrap is hierarchical: it resamples repetitions, then requests
// within each, so the interval reflects both run-to-run and request-to-request noise. Resampling
// both levels counts the request noise twice (it is already in the spread of the repetitions'
// values), so that interval is conservative: ~99% coverage at a nominal 95% with 10 repetitions
// of 40 requests. With scalar repetitions the percentile interval runs slightly narrow instead
// (~92% at 10 repetitions, ~94% at 30).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace infergate {

struct BootstrapOptions {
  int iterations = 2000;
  double confidence = 0.95;
  uint64_t seed = 1;
};

struct Interval {
  double lo = 0, hi = 0;
};

// A statistic of one repetition's per-request samples (e.g. the p95). Called with a scratch
// vector it may reorder.
using SampleStatistic = std::function<double(std::vector<double>&)>;

// numpy.percentile(samples, p) by nth_element; p in [0, 100] (else std::invalid_argument).
// The bootstrap recognizes this statistic and computes it on each resample by counting draws
// over the sorted repetition: the same bits, about 4x faster than copying and selecting.
SampleStatistic percentile_statistic(double p);
SampleStatistic mean_statistic();

// One side of a comparison: per repetition either one value (a scalar metric such as
// throughput) or that repetition's per-request samples (then `statistic` recomputes the value).
struct RepetitionSamples {
  std::vector<std::vector<double>> repetitions;
};

struct RelativeChange {
  double estimate = 0;  // candidate / baseline - 1
  Interval interval;
};

// estimate: mean over repetitions of each side's per-repetition value, candidate / baseline - 1.
// interval: percentile bootstrap at options.confidence. Each iteration resamples repetitions
// with replacement on each side and, for a repetition with more than one sample, resamples its
// samples with replacement and recomputes `statistic`. Deterministic for a given seed (its own
// generator and integer sampling; no std distributions, whose output varies by library).
// A resampled baseline mean of 0 counts as a change of +-infinity (0 if the candidate's is 0
// too). The interval usually, but not by construction, contains the estimate.
// Throws std::invalid_argument if a side has no repetitions, a repetition has no samples or a
// NaN, a repetition has several samples and `statistic` is empty, the options are out of range
// (iterations < 1, confidence outside (0, 1)), or the baseline mean is 0.
RelativeChange bootstrap_relative_change(const RepetitionSamples& baseline,
                                         const RepetitionSamples& candidate,
                                         const SampleStatistic& statistic,
                                         const BootstrapOptions& options);

}  // namespace infergate

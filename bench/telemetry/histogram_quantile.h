// A Prometheus histogram as a server exposes it (cumulative `_bucket{le=...}` counts, `_sum`,
// `_count`), the change between two scrapes of it, and its quantiles estimated the way
// PromQL's histogram_quantile() does: linear interpolation inside the bucket holding the rank.
// This is how the harness reads a server's own TTFT and ITL over exactly one run.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bench/telemetry/prometheus_text.h"

namespace infergate {

struct HistogramBucket {
  double le = 0;     // upper bound (the last is +Inf)
  double count = 0;  // cumulative: observations <= le
};

struct HistogramSnapshot {
  std::vector<HistogramBucket> buckets;  // ascending le
  double sum = 0, count = 0;
};

// The histogram `name` (its name_bucket, name_sum and name_count series), summed over every
// label set but `le` (several engines or models of one server count as one, like PromQL's
// `sum by (le)`); nullopt when the scrape has no name_count.
std::optional<HistogramSnapshot> find_histogram(const std::vector<PrometheusSample>& samples,
                                                const std::string& name);

// last - first, bucket by bucket: what was observed between the two scrapes. When the bucket
// bounds differ or a count went down (the server restarted in between), `last` alone.
HistogramSnapshot histogram_delta(const HistogramSnapshot& last, const HistogramSnapshot& first);

// PromQL's histogram_quantile(q, ...) for q in [0, 1]: nullopt without observations or without
// a +Inf bucket; a rank in the +Inf bucket gives the highest finite bound; the first bucket's
// lower bound is 0 (when its upper bound is positive).
std::optional<double> histogram_quantile(double q, const HistogramSnapshot& h);

// The exact mean, sum / count; nullopt without observations.
std::optional<double> histogram_mean(const HistogramSnapshot& h);

}  // namespace infergate

// One distribution of an imported run in our shape ({count, mean, min, p50, p90, p95, p99, max},
// docs/metrics.md) where each statistic may be missing: a tool that wrote only a mean and a p99
// gives those two, and the others are left out of the results file (the gates read a missing
// statistic as absent) rather than invented.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace infergate {

struct ImportedStats {
  std::optional<int64_t> count;
  std::optional<double> mean, min, p50, p90, p95, p99, max;

  // Multiplies every statistic but the count (seconds to milliseconds).
  ImportedStats scaled(double factor) const;
};

// Every statistic of `samples` by our definitions (numpy-linear percentiles); an empty sample is
// all zeros with count 0, as docs/metrics.md defines an empty distribution.
ImportedStats stats_of_samples(std::vector<double> samples);

// The statistics present, under our keys; {} when none is.
nlohmann::json stats_to_json(const ImportedStats& s);

// "mean, p50, p99" present, or the missing ones: for the notes.
std::string present_stats(const ImportedStats& s);
std::string missing_stats(const ImportedStats& s);

}  // namespace infergate

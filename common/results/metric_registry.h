// Every metric a run's summary holds (docs/results-schema.md), declared once: its unit, the
// direction it improves in, its shape, whether the gates can recompute it from per-request
// records, and the RunSummary member it is written from. The harness writes the summary from
// this table, the results reader checks values by it, and gates and reports read units and
// directions from it instead of guessing from name suffixes. A metric not listed (bench-comm's
// per-operation figures) has no unit and no direction, and is checked as a plain number.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <variant>

#include "common/results/run_summary.h"

namespace infergate {

enum class Improves { kLower, kHigher, kNeither };

// What a value must look like in a results file.
enum class MetricShape {
  kCount,                 // a whole number (a mean of counts in a point summary)
  kFraction,              // in 0 .. 1
  kNumber,                // non-negative, up to the unit's bound
  kOptionalNumber,        // a number, or null where it was not measured
  kDistribution,          // an object of count, mean, min, p50, p90, p95, p99, max
  kOptionalDistribution,  // such an object, or null where it was not measured
  kFlag,                  // a boolean; in a point summary, whether it held in any repetition
};

using SummaryMember = std::variant<int64_t RunSummary::*, double RunSummary::*,
                                   std::optional<double> RunSummary::*, StatSummary RunSummary::*,
                                   std::optional<StatSummary> RunSummary::*, bool RunSummary::*>;

struct MetricInfo {
  std::string_view name;  // the summary key: "tpot_ms"
  std::string_view unit;  // as reports print it: "ms", "req/s", "" for a plain count or share
  Improves improves = Improves::kNeither;
  MetricShape shape = MetricShape::kNumber;
  bool per_request = false;  // its stats can be recomputed from the per-request records
  SummaryMember member;
  // Completions per unit of time: in an open loop the target keeps up with, this is the arrival
  // rate whatever the code does, so a rule on it cannot see a slowdown there.
  bool paced_by_arrivals = false;

  bool distribution() const {
    return shape == MetricShape::kDistribution || shape == MetricShape::kOptionalDistribution;
  }
  // Far beyond any real measurement in this unit, and small enough that sums and ratios of a
  // few thousand values stay finite (a TPOT of 1e308 ms made the bootstrap interval NaN).
  double upper_bound() const;
};

// The run summary's metrics, in the order the results file writes them.
std::span<const MetricInfo> run_summary_metrics();

// The metric called `name`, or nullopt.
std::optional<MetricInfo> find_metric(std::string_view name);

// The bound of a metric the registry does not list.
inline constexpr double kUnlistedMetricBound = 1e12;

}  // namespace infergate

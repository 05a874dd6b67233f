// What a capacity search needs from one probe (docs/metrics.md, "Capacity at the SLO"): its
// summary, its wall time, and the SLO ratio at the goodput share, which is <= 1 exactly when
// the probe meets the SLO for that share of its requests and says by how much it passes or
// misses, so the capacity can be placed between two probes rather than at one of them.
#pragma once

#include <optional>
#include <vector>

#include "bench/metrics/request_record.h"
#include "bench/workload/workload.h"
#include "common/results/run_summary.h"

namespace infergate {

struct ProbeFigures {
  double goodput_share = 0.99;  // asked by the search (input)
  RunSummary summary;
  std::optional<double> slo_ratio;  // null: more than 1 - share of the requests failed
  std::vector<double> slo_ratios;   // every measured request's, so re-probes can be pooled
  double seconds = 0;
};

// request_slo_ratio() of every measured (non-warm-up) request, in record order.
std::vector<double> measured_slo_ratios(const std::vector<RequestRecord>& records,
                                        const SloSpec& slo);

// The ratio at rank ceil(share x n) (1-based, ascending): the share's quantile as an order
// statistic, so "ratio <= 1" and "share of ratios <= 1 is >= share" agree exactly. nullopt when
// that rank is a failed request (infinite) or there are none.
std::optional<double> slo_ratio_at_share(std::vector<double> ratios, double share);

// Fills the figures' ratios from a probe's records (its summary and time are the caller's).
void add_slo_ratios(ProbeFigures& figures, const std::vector<RequestRecord>& records,
                    const SloSpec& slo);

}  // namespace infergate

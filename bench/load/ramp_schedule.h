// When a ramp (load.ramp, workload.h) sends: the offered rate or users at each moment, the
// stage a moment falls in, an open loop's send times and a closed loop's user joins.
// Definitions: docs/metrics.md, "Ramps and saturation".
#pragma once

#include <vector>

#include "bench/workload/workload.h"

namespace infergate {

class RampSchedule {
 public:
  explicit RampSchedule(const RampSpec& ramp);

  double duration_s() const { return ramp_.duration_s(); }
  int stages() const { return ramp_.stages; }
  // Stage i covers [stage_start_s(i), stage_start_s(i + 1)).
  double stage_start_s(int stage) const { return stage * ramp_.stage_s; }
  // The stage an offset falls in, clamped to [0, stages - 1].
  int stage_of(double offset_s) const;

  // The offered value (requests/s or users) at an offset, and its mean over a stage.
  double value_at(double offset_s) const;
  double stage_mean(int stage) const;

  // Open loops: the requests offered by `offset_s` (the integral of the rate), and its inverse,
  // which maps a unit-rate arrival process's times onto the ramp (a time-changed process: a
  // Poisson process stays Poisson with the ramp's rate at every moment); duration_s() at and
  // past the ramp's whole count.
  double cumulative(double offset_s) const;
  double offset_of_cumulative(double count) const;

  // Closed loops: when each user joins, in order ("steps": the users a stage adds join at its
  // start; "linear": one more every duration / (to - from + 1)); the first `from` join at 0.
  std::vector<double> user_joins_s() const;

 private:
  RampSpec ramp_;
  bool linear_;
};

}  // namespace infergate

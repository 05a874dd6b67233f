// A seeded schedule of CPU shares for the drift generator (bench/programs/drift/cpu_drift_main.cc):
// the varying load of a noisy neighbour, as a run of segments, each a share of every core held for
// a while. The same seed gives the same schedule on every machine (mt19937_64, no std
// distributions), so a noisy calibration can be repeated.
#pragma once

#include <cstdint>
#include <vector>

namespace infergate {

struct DriftSettings {
  uint64_t seed = 1;
  double max_share = 0.5;  // of each core, 0 .. 1
  double min_segment_s = 5, max_segment_s = 60;
  double duration_s = 600;
};

struct DriftSegment {
  double start_s = 0, length_s = 0;
  double share = 0;  // of each core, 0 .. max_share
};

// Segments covering [0, duration_s). Throws std::invalid_argument naming the setting that is out
// of range (shares outside 0..1, segment lengths outside 0.1 s .. 1 h or min > max, a duration
// outside 0 .. 24 h).
std::vector<DriftSegment> drift_schedule(const DriftSettings& settings);

// The share at `t_s` seconds; 0 past the end.
double share_at(const std::vector<DriftSegment>& schedule, double t_s);

}  // namespace infergate

#include "bench/programs/drift/drift_schedule.h"

#include <random>
#include <stdexcept>

namespace infergate {

namespace {

// mt19937_64's output is fixed by the standard; std's distributions are not, hence this one.
double uniform(std::mt19937_64& rng, double lo, double hi) {
  return lo + (hi - lo) * double(rng() >> 11) * 0x1.0p-53;
}

void check(const DriftSettings& s) {
  if (!(s.max_share >= 0 && s.max_share <= 1)) {
    throw std::invalid_argument("--max-share must be in 0 .. 1");
  }
  if (!(s.min_segment_s >= 0.1 && s.max_segment_s <= 3600 && s.min_segment_s <= s.max_segment_s)) {
    throw std::invalid_argument(
        "segment lengths must satisfy 0.1 <= --min-segment-s <= --max-segment-s <= 3600");
  }
  if (!(s.duration_s > 0 && s.duration_s <= 86400)) {
    throw std::invalid_argument("--duration-s must be in (0, 86400]");
  }
}

}  // namespace

std::vector<DriftSegment> drift_schedule(const DriftSettings& settings) {
  check(settings);
  std::mt19937_64 state(settings.seed);
  std::vector<DriftSegment> segments;
  for (double t = 0; t < settings.duration_s;) {
    DriftSegment s;
    s.start_s = t;
    s.length_s = uniform(state, settings.min_segment_s, settings.max_segment_s);
    s.share = uniform(state, 0, settings.max_share);
    segments.push_back(s);
    t += s.length_s;
  }
  return segments;
}

double share_at(const std::vector<DriftSegment>& schedule, double t_s) {
  for (const DriftSegment& s : schedule) {
    if (t_s >= s.start_s && t_s < s.start_s + s.length_s) return s.share;
  }
  return 0;
}

}  // namespace infergate

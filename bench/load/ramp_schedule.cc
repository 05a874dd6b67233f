#include "bench/load/ramp_schedule.h"

#include <algorithm>
#include <cmath>

namespace infergate {

RampSchedule::RampSchedule(const RampSpec& ramp) : ramp_(ramp), linear_(ramp.shape == "linear") {}

int RampSchedule::stage_of(double offset_s) const {
  // A stage's start computed as stage x stage_s lies in that stage despite rounding.
  const int stage = int(std::floor(offset_s / ramp_.stage_s + 1e-9));
  return std::clamp(stage, 0, ramp_.stages - 1);
}

double RampSchedule::value_at(double offset_s) const {
  const double span = ramp_.to - ramp_.from;
  if (linear_) {
    const double t = std::clamp(offset_s, 0.0, duration_s());
    return ramp_.from + span * t / duration_s();
  }
  return ramp_.from + span * stage_of(offset_s) / (ramp_.stages - 1);
}

double RampSchedule::stage_mean(int stage) const {
  if (!linear_) return value_at(stage_start_s(stage));
  return 0.5 * (value_at(stage_start_s(stage)) + value_at(stage_start_s(stage + 1)));
}

double RampSchedule::cumulative(double offset_s) const {
  const double t = std::clamp(offset_s, 0.0, duration_s());
  if (linear_) return ramp_.from * t + (ramp_.to - ramp_.from) * t * t / (2 * duration_s());
  const int stage = stage_of(t);
  double count = 0;
  for (int i = 0; i < stage; ++i) count += value_at(stage_start_s(i)) * ramp_.stage_s;
  return count + value_at(t) * (t - stage_start_s(stage));
}

double RampSchedule::offset_of_cumulative(double count) const {
  if (count <= 0) return 0;
  if (linear_) {
    if (count >= cumulative(duration_s())) return duration_s();
    // from t + a t^2 = count with a = (to - from) / (2 duration); the root that is >= 0, in the
    // form that does not cancel when a is near 0.
    const double a = (ramp_.to - ramp_.from) / (2 * duration_s());
    return 2 * count / (ramp_.from + std::sqrt(ramp_.from * ramp_.from + 4 * a * count));
  }
  // A count at a stage's end (to rounding) is the next stage's start: constant arrivals then
  // send exactly rate x stage_s requests in every stage.
  double before = 0;
  for (int i = 0; i < ramp_.stages; ++i) {
    const double rate = value_at(stage_start_s(i));
    const double end = before + rate * ramp_.stage_s;
    if (std::abs(count - end) <= 1e-9 * std::max(1.0, end)) return stage_start_s(i + 1);
    if (count < end) return stage_start_s(i) + (count - before) / rate;
    before = end;
  }
  return duration_s();
}

std::vector<double> RampSchedule::user_joins_s() const {
  const int from = int(std::lround(ramp_.from));
  const int to = int(std::lround(ramp_.to));
  std::vector<double> joins(size_t(from), 0.0);
  if (linear_) {
    const double every = duration_s() / double(to - from + 1);
    for (int k = 1; k <= to - from; ++k) joins.push_back(k * every);
    return joins;
  }
  for (int i = 1; i < ramp_.stages; ++i) {
    const int users = int(std::lround(value_at(stage_start_s(i))));
    while (int(joins.size()) < users) joins.push_back(stage_start_s(i));
  }
  return joins;
}

}  // namespace infergate

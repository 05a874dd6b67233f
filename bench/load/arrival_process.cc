#include "bench/load/arrival_process.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "common/random/random_variates.h"

namespace infergate {

namespace {

bool positive_finite(double x) { return std::isfinite(x) && x > 0; }

ArrivalProcess::Kind parse_kind(const std::string& arrival) {
  if (arrival == "constant") return ArrivalProcess::Kind::kConstant;
  if (arrival == "poisson") return ArrivalProcess::Kind::kPoisson;
  if (arrival == "gamma") return ArrivalProcess::Kind::kGamma;
  throw std::invalid_argument("load.arrival: unknown arrival process \"" + arrival +
                              "\" (allowed: constant, poisson, gamma)");
}

}  // namespace

ArrivalProcess::ArrivalProcess(Kind kind, double rate, double shape, uint64_t seed)
    : kind_(kind), rate_(rate), shape_(shape), rng_(seed) {}

ArrivalProcess ArrivalProcess::from_load(const LoadSpec& load, uint64_t seed) {
  const Kind kind = parse_kind(load.arrival);
  if (!positive_finite(load.rate)) {
    throw std::invalid_argument(
        "load.rate must be a positive finite number of requests per "
        "second, got " +
        std::to_string(load.rate));
  }
  if (kind == Kind::kGamma && !positive_finite(load.burstiness)) {
    throw std::invalid_argument("load.burstiness must be a positive finite number, got " +
                                std::to_string(load.burstiness));
  }
  return ArrivalProcess(kind, load.rate, load.burstiness, seed);
}

double ArrivalProcess::next_gap_s() {
  switch (kind_) {
    case Kind::kConstant:
      return 1.0 / rate_;
    case Kind::kPoisson:
      return exponential(rng_, 1.0 / rate_);
    case Kind::kGamma:
      return gamma_variate(rng_, shape_, 1.0 / (rate_ * shape_));
  }
  return 1.0 / rate_;
}

std::vector<double> schedule_offsets_s(const LoadSpec& load, int count, uint64_t seed) {
  if (count < 0) throw std::invalid_argument("schedule_offsets_s: negative count");
  ArrivalProcess process = ArrivalProcess::from_load(load, seed);
  std::vector<double> offsets(static_cast<size_t>(count));
  double t = 0;
  for (size_t i = 0; i < offsets.size(); ++i) {
    if (process.kind() == ArrivalProcess::Kind::kConstant) {
      offsets[i] = static_cast<double>(i) / process.rate();
      continue;
    }
    if (i > 0) t += process.next_gap_s();
    offsets[i] = t;
  }
  return offsets;
}

}  // namespace infergate

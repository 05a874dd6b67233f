#include "bench/metrics/harness_lag.h"

#include <algorithm>

namespace infergate {

namespace {

constexpr double kGrowthLimitMs = 1.0;

double median_lag_ms(std::vector<double> lags) {
  std::nth_element(lags.begin(), lags.begin() + lags.size() / 2, lags.end());
  return lags[lags.size() / 2];
}

}  // namespace

bool send_lag_grew(const std::vector<RequestRecord>& records) {
  std::vector<double> lags;
  for (const RequestRecord& r : records) {
    if (!r.warmup && r.sent_ns > 0) lags.push_back(double(r.sent_ns - r.scheduled_ns) * 1e-6);
  }
  const size_t tenth = lags.size() / 10;
  if (tenth == 0) return false;
  const std::vector<double> first(lags.begin(), lags.begin() + long(tenth));
  const std::vector<double> last(lags.end() - long(tenth), lags.end());
  return median_lag_ms(last) - median_lag_ms(first) > kGrowthLimitMs;
}

}  // namespace infergate

// Numbers as every report prints them: values with the unit their results-file key implies
// (docs/results-schema.md: `<metric>_<unit>`), relative changes as signed percentages, and
// p-values. Non-finite values print as "n/a".
#pragma once

#include <string>
#include <string_view>

#include "common/results/metric_key.h"

namespace infergate {

// `v` to `significant` digits, without an exponent below 10^15: 30.27, 0.0123, 426061824.
std::string format_number(double v, int significant = 4);
// The unit a metric name ends in: "ms", "s", "bytes", "req/s", "tok/s", "%", "tokens" or "".
std::string metric_unit(std::string_view metric);
// `v` in the metric's unit: "30.27 ms", "406.3 MiB" (bytes in binary multiples), "7.637 req/s".
std::string format_metric_value(double v, const MetricKey& key);
// A fraction as a signed percentage: 0.0493 -> "+4.93%", -0.2 -> "-20.0%".
std::string format_change(double fraction);
// "[+1.20%, +8.81%]"
std::string format_interval(double lo, double hi);
// Two significant digits, and "<0.001" below that.
std::string format_p_value(double p);

}  // namespace infergate

// Tick marks for a chart axis: "nice" steps of 1, 2 or 5 times a power of ten that cover the
// data (Heckbert, Graphics Gems, 1990), and their labels.
#pragma once

#include <string>
#include <vector>

namespace infergate {

struct AxisTicks {
  double lo = 0, hi = 1;  // the axis range: the data range widened to whole steps
  double step = 1;
  std::vector<double> values;  // lo, lo + step, ..., hi
};

// About `target` ticks covering [lo, hi]; a zero-width or non-finite range gets a unit range
// around it.
AxisTicks nice_ticks(double lo, double hi, int target = 5);
// `value` with as many decimals as `step` needs: 0.2 -> "0.2", 2000 -> "2000", 2.5e6 -> "2.5M".
std::string tick_label(double value, double step);

}  // namespace infergate

// A flag's value checked against its range, with the message every command gives: the flag,
// the value and the range ("--max-queued -1 is out of range (0 to 1048576)").
#pragma once

#include <string>

namespace infergate {

// A number as a flag message writes it (up to 12 significant digits).
std::string flag_number(double value);

// Throws std::invalid_argument unless `value` is in [low, high], or in (low, high] when
// `low_open`; NaN is in no range.
void check_flag_range(const std::string& flag, double value, double low, double high,
                      bool low_open = false);

}  // namespace infergate

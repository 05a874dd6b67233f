#include "cli/flag_range.h"

#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace infergate {

std::string flag_number(double value) {
  std::ostringstream text;
  text << std::setprecision(12) << value;
  return text.str();
}

void check_flag_range(const std::string& flag, double value, double low, double high,
                      bool low_open) {
  if (!(value >= low && value <= high) || (low_open && value == low)) {
    throw std::invalid_argument("--" + flag + " " + flag_number(value) + " is out of range (" +
                                (low_open ? "above " : "") + flag_number(low) + " to " +
                                flag_number(high) + ")");
  }
}

}  // namespace infergate

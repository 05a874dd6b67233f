#include "bench/programs/comm/byte_size.h"

#include <cctype>
#include <stdexcept>

namespace infergate {

size_t parse_byte_size(const std::string& text, const std::string& option) {
  size_t used = 0;
  unsigned long long value = 0;
  try {
    if (!text.empty() && std::isdigit(static_cast<unsigned char>(text[0]))) {
      value = std::stoull(text, &used);
    }
  } catch (const std::exception&) {
    used = 0;
  }
  const std::string suffix = text.substr(used);
  int shift = -1;
  if (suffix.empty() || suffix == "B") shift = 0;
  if (suffix == "K" || suffix == "KiB") shift = 10;
  if (suffix == "M" || suffix == "MiB") shift = 20;
  if (suffix == "G" || suffix == "GiB") shift = 30;
  if (used == 0 || shift < 0 || value > (~0ull >> shift)) {
    throw std::invalid_argument(option + ": '" + text +
                                "' is not a byte count (e.g. 8, 4K, 64M, 1G: binary multiples)");
  }
  return static_cast<size_t>(value << shift);
}

std::string format_byte_size(size_t bytes) {
  const char* units[] = {"G", "M", "K"};
  const int shifts[] = {30, 20, 10};
  for (int i = 0; i < 3; ++i) {
    const size_t unit = size_t{1} << shifts[i];
    if (bytes >= unit && bytes % unit == 0) return std::to_string(bytes / unit) + units[i];
  }
  return std::to_string(bytes);
}

}  // namespace infergate

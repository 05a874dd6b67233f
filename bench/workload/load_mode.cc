#include "bench/workload/load_mode.h"

#include <stdexcept>

namespace infergate {

const std::vector<std::string>& load_mode_names() {
  static const std::vector<std::string> names = {"closed", "open", "trace", "sessions"};
  return names;
}

const std::string& load_mode_name(LoadMode mode) { return load_mode_names()[size_t(mode)]; }

LoadMode load_mode_from_name(const std::string& name) {
  const std::vector<std::string>& names = load_mode_names();
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return LoadMode(i);
  }
  throw std::invalid_argument("load.mode \"" + name +
                              "\" is not one of \"closed\", \"open\", \"trace\", \"sessions\"");
}

}  // namespace infergate

// Progress of a run on stderr: a redrawn bar on a terminal (requests done, ETA, live QPS and
// TTFT), a plain line every few seconds otherwise, nothing with --quiet.
#pragma once

#include <cstdint>
#include <string>

#include "bench/driver/load_driver.h"

namespace infergate {

class ProgressPrinter {
 public:
  ProgressPrinter(bool quiet, bool is_tty, std::string label);
  void update(const DriverProgress& p);
  // Ends the bar's line (terminal) so later output starts clean.
  void finish();

 private:
  std::string line(const DriverProgress& p) const;

  bool quiet_;
  bool is_tty_;
  std::string label_;
  int64_t last_plain_ns_ = 0;
  bool drew_ = false;
};

}  // namespace infergate

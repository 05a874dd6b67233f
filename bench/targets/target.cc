#include "bench/targets/target.h"

#include "common/util/clock.h"

namespace infergate {

TargetEvent end_event(uint64_t index, RequestStatus status, std::string error) {
  TargetEvent e;
  e.index = index;
  e.finished = true;
  e.finished_ns = now_ns();
  e.status = status;
  e.error = std::move(error);
  return e;
}

}  // namespace infergate

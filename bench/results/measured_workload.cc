#include "bench/results/measured_workload.h"

namespace infergate {

nlohmann::json measured_workload(nlohmann::json resolved) {
  for (const char* field : {"name", "description", "overrides", "repetitions", "record_requests"}) {
    resolved.erase(field);
  }
  return resolved;
}

}  // namespace infergate

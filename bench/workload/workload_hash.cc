#include "bench/workload/workload_hash.h"

namespace infergate {

std::string workload_hash(const nlohmann::json& resolved, const std::string& base_dir) {
  return measured_workload_hash(resolved, base_dir);
}

}  // namespace infergate

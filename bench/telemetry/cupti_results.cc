#include "bench/telemetry/cupti_results.h"

#include "bench/telemetry/kernel_activity.h"

namespace infergate {
namespace {

nlohmann::json stats_json(const std::vector<KernelRecord>& records) {
  nlohmann::json out = nlohmann::json::array();
  for (const KernelStats& s : kernel_stats(records)) {
    out.push_back({{"name", s.name}, {"count", s.count}, {"total_ms", s.total_ms}});
  }
  return out;
}

}  // namespace

nlohmann::json cupti_results_json(const CuptiTracer& tracer, int64_t begin_ns, int64_t end_ns) {
  const std::vector<KernelRecord> kernels = tracer.kernels();
  nlohmann::json j = {{"enabled", true},
                      {"available", tracer.available()},
                      {"unavailable_reason", nullptr},
                      {"kernels", stats_json(kernels)},
                      {"memcpys", stats_json(tracer.memcpys())},
                      {"gpu_busy_fraction", nullptr},
                      {"dropped_records", tracer.dropped_records()}};
  if (tracer.available()) {
    j["gpu_busy_fraction"] = gpu_busy_fraction(kernels, begin_ns, end_ns);
  } else {
    j["unavailable_reason"] = tracer.unavailable_reason();
  }
  return j;
}

}  // namespace infergate

#include "bench/telemetry/resource_sample.h"

namespace infergate {
namespace {

nlohmann::json or_null(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

}  // namespace

nlohmann::json to_json(const ResourceSample& sample) {
  return {{"time_ns", sample.time_ns},
          {"rss_bytes", sample.rss_bytes},
          {"cpu_pct", sample.cpu_pct},
          {"gpu_memory_bytes", or_null(sample.gpu_memory_bytes)},
          {"gpu_utilization_pct", or_null(sample.gpu_utilization_pct)},
          {"extra", sample.extra.is_null() ? nlohmann::json::object() : sample.extra}};
}

}  // namespace infergate

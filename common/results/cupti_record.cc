#include "common/results/cupti_record.h"

namespace infergate {

namespace {

using nlohmann::json;

template <typename T>
json or_null(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

json stats_json(const std::vector<KernelStats>& stats) {
  json out = json::array();
  for (const KernelStats& s : stats) {
    out.push_back({{"name", s.name}, {"count", s.count}, {"total_ms", s.total_ms}});
  }
  return out;
}

std::vector<KernelStats> read_stats(const SectionReader& cupti, const char* key) {
  std::vector<KernelStats> out;
  for (const SectionReader& s : cupti.array(key)) {
    out.push_back({s.text("name"), s.integer("count"), s.number("total_ms")});
  }
  return out;
}

uint64_t read_count(const SectionReader& cupti, const char* key) {
  const int64_t n = cupti.integer(key);
  if (n < 0) cupti.fail(key, "expected a count, got " + std::to_string(n));
  return uint64_t(n);
}

}  // namespace

nlohmann::json to_json(const CuptiRecord& cupti) {
  return {{"enabled", cupti.enabled},
          {"available", cupti.available},
          {"unavailable_reason", or_null(cupti.unavailable_reason)},
          {"kernels", stats_json(cupti.kernels)},
          {"memcpys", stats_json(cupti.memcpys)},
          {"gpu_busy_fraction", or_null(cupti.gpu_busy_fraction)},
          {"dropped_records", cupti.dropped_records}};
}

CuptiRecord read_cupti_record(const SectionReader& r) {
  r.expect_object();
  CuptiRecord cupti;
  cupti.enabled = r.flag("enabled");
  cupti.available = r.flag("available");
  cupti.unavailable_reason = r.optional_text("unavailable_reason");
  cupti.kernels = read_stats(r, "kernels");
  cupti.memcpys = read_stats(r, "memcpys");
  cupti.gpu_busy_fraction = r.optional_number("gpu_busy_fraction");
  cupti.dropped_records = read_count(r, "dropped_records");
  return cupti;
}

}  // namespace infergate

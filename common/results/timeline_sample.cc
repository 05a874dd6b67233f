#include "common/results/timeline_sample.h"

namespace infergate {

namespace {

nlohmann::json sample_json(const TimelineSample& s) {
  nlohmann::json j = {{"t_ms", s.t_ms}};
  if (s.rss_bytes) j["rss_bytes"] = *s.rss_bytes;
  if (s.cpu_pct) j["cpu_pct"] = *s.cpu_pct;
  if (s.gpu_memory_bytes) j["gpu_memory_bytes"] = *s.gpu_memory_bytes;
  if (s.gpu_utilization_pct) j["gpu_utilization_pct"] = *s.gpu_utilization_pct;
  nlohmann::json target = s.target ? to_json(*s.target) : nlohmann::json::object();
  if (!s.target_error.empty()) target["enrich_error"] = s.target_error;
  if (!target.empty()) j["engine"] = std::move(target);
  return j;
}

TimelineSample read_sample(const SectionReader& r) {
  TimelineSample s;
  s.t_ms = r.number("t_ms");
  s.rss_bytes = r.optional_number("rss_bytes");
  s.cpu_pct = r.optional_number("cpu_pct");
  s.gpu_memory_bytes = r.optional_number("gpu_memory_bytes");
  s.gpu_utilization_pct = r.optional_number("gpu_utilization_pct");
  if (r.has("engine")) {
    const SectionReader target = r.object("engine");
    s.target_error = target.text_or("enrich_error", "");
    s.target = read_target_stats(target);
  }
  return s;
}

}  // namespace

nlohmann::json timeline_to_json(const std::vector<TimelineSample>& samples) {
  nlohmann::json out = nlohmann::json::array();
  for (const TimelineSample& s : samples) out.push_back(sample_json(s));
  return out;
}

std::vector<TimelineSample> read_timeline(const SectionReader& r) {
  std::vector<TimelineSample> out;
  for (const SectionReader& s : r.elements()) out.push_back(read_sample(s));
  return out;
}

}  // namespace infergate

#include "bench/results/summary_table.h"

#include <cstdio>
#include <string>
#include <vector>

namespace infergate {

namespace {

struct Column {
  const char* header;
  const char* path;  // JSON pointer into a summary
  double scale;
  const char* format;
};

const std::vector<Column>& columns() {
  static const std::vector<Column> c = {
      {"req/s", "/request_throughput_rps", 1, "%.2f"},
      {"TTFT p50 ms", "/ttft_ms/p50", 1, "%.1f"},
      {"TTFT p95 ms", "/ttft_ms/p95", 1, "%.1f"},
      {"TPOT p50 ms", "/tpot_ms/p50", 1, "%.2f"},
      {"TPOT p95 ms", "/tpot_ms/p95", 1, "%.2f"},
      {"out tok/s", "/output_throughput_tps", 1, "%.1f"},
      {"goodput/s", "/goodput_rps", 1, "%.2f"},
      {"peak MiB", "/peak_memory_bytes", 1.0 / 1048576.0, "%.0f"},
      {"util %", "/utilization_pct", 1, "%.0f"},
  };
  return c;
}

std::string cell(const nlohmann::json& summary, const Column& c) {
  const nlohmann::json::json_pointer ptr(c.path);
  if (!summary.contains(ptr) || !summary[ptr].is_number()) return "-";
  char buf[32];
  std::snprintf(buf, sizeof(buf), c.format, summary[ptr].get<double>() * c.scale);
  return buf;
}

}  // namespace

void print_summary_table(std::ostream& out, const nlohmann::json& results) {
  const nlohmann::json& points = results.at("points");
  if (points.empty()) return;
  const bool sweep = !points[0]["sweep"].is_null();
  char buf[64];
  std::string header = sweep ? points[0]["sweep"]["field"].get<std::string>() : "point";
  std::snprintf(buf, sizeof(buf), "%-14s", header.c_str());
  out << "\n" << buf;
  for (const Column& c : columns()) {
    std::snprintf(buf, sizeof(buf), " %12s", c.header);
    out << buf;
  }
  out << "\n";
  for (const nlohmann::json& p : points) {
    const std::string label = sweep ? p["sweep"]["value"].dump() : "all";
    std::snprintf(buf, sizeof(buf), "%-14s", label.c_str());
    out << buf;
    for (const Column& c : columns()) {
      std::snprintf(buf, sizeof(buf), " %12s", cell(p["summary"], c).c_str());
      out << buf;
    }
    out << "\n";
  }
  const nlohmann::json& s = points[0]["summary"];
  if (s.value("harness_limited", false)) {
    out << "warning: harness-limited: the load generator fell behind its schedule (send lag grew "
           "by over 1 ms); the target was not offered the load the workload asks for\n";
  }
}

}  // namespace infergate

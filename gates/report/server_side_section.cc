#include "gates/report/server_side_section.h"

#include "common/report/markup_escape.h"
#include "common/report/metric_format.h"

namespace infergate {

namespace {

// A number at `key` of `object` in ms, or "-" when absent or null.
std::string ms_at(const nlohmann::json& object, const char* key) {
  if (!object.is_object() || !object.contains(key) || !object[key].is_number()) return "-";
  return format_number(object[key].get<double>());
}

// "mean / p50 / p95 / p99" of a latency object.
std::string latency_cells(const nlohmann::json& stats) {
  std::string html;
  for (const char* key : {"mean", "p50", "p95", "p99"})
    html += table_cell(ms_at(stats, key), "num");
  return html;
}

std::string row(const std::string& side, const PointResult& p, const RepetitionResult& r) {
  const nlohmann::json& server = r.server;
  const nlohmann::json metrics = server.value("metrics", nlohmann::json::object());
  const nlohmann::json check = server.value("ttft_cross_check", nlohmann::json());
  std::string flag = "-";
  std::string reason;
  if (check.is_object()) {
    flag = check.value("disagreement", false) ? "disagree" : "agree";
    reason = check.value("reason", std::string());
  }
  const std::string point =
      p.sweep.is_object() ? p.sweep.value("field", "") + " = " + p.sweep["value"].dump() : "-";
  return "<tr>" + table_cell(side) + table_cell(point) +
         table_cell(std::to_string(r.index), "num") +
         table_cell(check.is_object() ? ms_at(check, "client_mean_ms") : "-", "num") +
         latency_cells(metrics.value("ttft_ms", nlohmann::json())) +
         latency_cells(r.summary.value("itl_ms", nlohmann::json())) +
         latency_cells(metrics.value("itl_ms", nlohmann::json())) +
         table_cell(check.is_object() ? ms_at(check, "difference_ms") : "-", "num") +
         table_cell(check.is_object() ? ms_at(check, "bound_ms") : "-", "num") +
         table_cell(flag, flag == "disagree" ? "v-regressed" : nullptr) + table_cell(reason) +
         "</tr>\n";
}

bool has_server_latency(const RepetitionResult& r) {
  if (!r.server.is_object() || !r.server.contains("metrics")) return false;
  const nlohmann::json& m = r.server["metrics"];
  return m.is_object() && m.contains("ttft_ms") && m["ttft_ms"].is_object();
}

}  // namespace

std::string server_side_section(const std::vector<ReportSide>& sides) {
  std::string rows;
  for (const ReportSide& side : sides) {
    for (const PointResult& p : side.results->points) {
      for (const RepetitionResult& r : p.repetitions) {
        if (has_server_latency(r)) rows += row(side.name, p, r);
      }
    }
  }
  if (rows.empty()) {
    return "<p class=\"note\">" +
           escape_markup(
               "No repetition with a server's latency histograms "
               "(repetitions[].server.metrics.ttft_ms: openai targets whose server "
               "exposes /metrics).") +
           "</p>\n";
  }
  std::string header = "<tr>";
  for (const char* h : {"side",
                        "point",
                        "rep",
                        "client TTFT mean from send (ms)",
                        "server TTFT mean",
                        "p50",
                        "p95",
                        "p99",
                        "client ITL mean",
                        "p50",
                        "p95",
                        "p99",
                        "server ITL mean",
                        "p50",
                        "p95",
                        "p99",
                        "client - server TTFT (ms)",
                        "bound (ms)",
                        "cross-check",
                        "why"}) {
    header += std::string("<th>") + escape_markup(h) + "</th>";
  }
  return "<p class=\"note\">" +
         escape_markup(
             "Server figures are the server's own histograms over the repetition (last scrape "
             "minus first; percentiles interpolated in the buckets, docs/metrics.md). The bound is "
             "3 x the transport's RTT P95 + 1 ms.") +
         "</p>\n<table>\n" + header + "</tr>\n" + rows + "</table>\n";
}

}  // namespace infergate

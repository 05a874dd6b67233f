#include "gates/report/server_side_section.h"

#include "common/report/markup_escape.h"
#include "common/report/metric_format.h"

namespace infergate {

namespace {

std::string ms_cell(const std::optional<double>& ms) {
  return table_cell(ms ? format_number(*ms) : "-", "num");
}

// "mean / p50 / p95 / p99" of the server's latency, "-" for each without the histogram.
std::string latency_cells(const std::optional<ServerLatency>& latency) {
  const ServerLatency l = latency.value_or(ServerLatency{});
  return ms_cell(l.mean) + ms_cell(l.p50) + ms_cell(l.p95) + ms_cell(l.p99);
}

// The same of the client's, a stats object of the repetition's summary.
std::string summary_latency_cells(const nlohmann::json& stats) {
  std::string html;
  for (const char* key : {"mean", "p50", "p95", "p99"}) {
    const bool has = stats.is_object() && stats.contains(key) && stats[key].is_number();
    html += ms_cell(has ? std::optional<double>(stats[key].get<double>()) : std::nullopt);
  }
  return html;
}

std::string row(const std::string& side, const PointResult& p, const RepetitionResult& r) {
  const ServerSideRecord& server = *r.server;
  const std::optional<TtftCrossCheck>& check = server.ttft_cross_check;
  const auto of_check = [&](double TtftCrossCheck::*field) {
    return check ? std::optional<double>((*check).*field) : std::nullopt;
  };
  const std::string flag = !check ? "-" : check->disagreement ? "disagree" : "agree";
  const std::string point =
      p.sweep.is_object() ? p.sweep.value("field", "") + " = " + p.sweep["value"].dump() : "-";
  return "<tr>" + table_cell(side) + table_cell(point) +
         table_cell(std::to_string(r.index), "num") +
         ms_cell(of_check(&TtftCrossCheck::client_mean_ms)) +
         latency_cells(server.metrics.ttft_ms) +
         summary_latency_cells(r.summary.value("itl_ms", nlohmann::json())) +
         latency_cells(server.metrics.itl_ms) + ms_cell(of_check(&TtftCrossCheck::difference_ms)) +
         ms_cell(of_check(&TtftCrossCheck::bound_ms)) +
         table_cell(flag, flag == "disagree" ? "v-regressed" : nullptr) +
         table_cell(check ? check->reason : "") + "</tr>\n";
}

bool has_server_latency(const RepetitionResult& r) { return r.server && r.server->metrics.ttft_ms; }

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

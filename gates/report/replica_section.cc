#include "gates/report/replica_section.h"

#include "common/report/markup_escape.h"
#include "common/report/svg_chart.h"

namespace infergate {

namespace {

// Okabe-Ito colours after the two the sides use.
constexpr const char* kReplicaColors[] = {"#009E73", "#E69F00", "#56B4E9", "#CC79A7",
                                          "#F0E442", "#000000", "#0072B2", "#D55E00"};

// Replica `i`'s in-flight requests over a repetition's timeline.
std::vector<ChartPoint> in_flight_series(const nlohmann::json& timeline, size_t i) {
  std::vector<ChartPoint> points;
  if (!timeline.is_array()) return points;
  for (const nlohmann::json& sample : timeline) {
    if (!sample.is_object() || !sample.contains("t_ms") || !sample["t_ms"].is_number()) continue;
    const nlohmann::json* router = nullptr;
    if (sample.contains("engine") && sample["engine"].is_object() &&
        sample["engine"].contains("router")) {
      router = &sample["engine"]["router"];
    }
    if (!router || !router->contains("replicas") || !(*router)["replicas"].is_array()) continue;
    const nlohmann::json& replicas = (*router)["replicas"];
    if (i >= replicas.size() || !replicas[i].is_object()) continue;
    points.push_back({sample["t_ms"].get<double>() / 1e3, replicas[i].value("in_flight", 0.0)});
  }
  return points;
}

size_t replica_count(const nlohmann::json& timeline) {
  size_t n = 0;
  if (!timeline.is_array()) return n;
  for (const nlohmann::json& sample : timeline) {
    const nlohmann::json r =
        sample.is_object() && sample.contains("engine") && sample["engine"].is_object()
            ? sample["engine"].value("router", nlohmann::json())
            : nlohmann::json();
    if (r.is_object() && r.contains("replicas") && r["replicas"].is_array()) {
      n = std::max(n, r["replicas"].size());
    }
  }
  return n;
}

void add_faults(const nlohmann::json& engine, XyChart& chart) {
  if (!engine.is_object() || !engine.contains("router")) return;
  const nlohmann::json faults = engine["router"].value("faults", nlohmann::json::array());
  for (const nlohmann::json& f : faults) {
    if (!f.is_object() || !f.contains("at_ms") || f.contains("error")) continue;
    chart.references.push_back({true, f["at_ms"].get<double>() / 1e3,
                                "replica " + std::to_string(f.value("kill_replica", 0)) + " killed",
                                "#555555"});
  }
}

}  // namespace

std::string replica_section(const std::vector<ReportSide>& sides) {
  std::string html;
  for (const ReportSide& side : sides) {
    for (const PointResult& p : side.results->points) {
      for (const RepetitionResult& r : p.repetitions) {
        const size_t n = replica_count(r.timeline);
        if (n == 0) continue;
        XyChart chart;
        chart.kind = "replica-timeline";
        chart.title = "Requests in flight per replica (" + side.name + ", repetition " +
                      std::to_string(r.index) +
                      (p.sweep.is_object()
                           ? ", " + p.sweep.value("field", "") + " = " + p.sweep["value"].dump()
                           : "") +
                      ")";
        chart.x.label = "time since the repetition started (s)";
        chart.y.label = "requests in flight";
        chart.y.min = 0;
        for (size_t i = 0; i < n; ++i) {
          chart.series.push_back({"replica " + std::to_string(i),
                                  kReplicaColors[i % std::size(kReplicaColors)],
                                  in_flight_series(r.timeline, i)});
        }
        add_faults(r.engine, chart);
        if (has_points(chart)) html += "<figure>" + render_xy_chart(chart) + "</figure>\n";
      }
    }
  }
  if (html.empty()) {
    return "<p class=\"note\">" +
           escape_markup(
               "No router target in these results (repetitions[].timeline[].engine"
               ".router).") +
           "</p>\n";
  }
  return "<div class=\"figures\">\n" + html + "</div>\n";
}

}  // namespace infergate

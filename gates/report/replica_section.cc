#include "gates/report/replica_section.h"

#include "common/report/markup_escape.h"
#include "common/report/svg_chart.h"

namespace infergate {

namespace {

// Okabe-Ito colours after the two the sides use.
constexpr const char* kReplicaColors[] = {"#009E73", "#E69F00", "#56B4E9", "#CC79A7",
                                          "#F0E442", "#000000", "#0072B2", "#D55E00"};

const RouterRecord* router_of(const TimelineSample& sample) {
  return sample.target && sample.target->router ? &*sample.target->router : nullptr;
}

// Replica `i`'s in-flight requests over a repetition's timeline.
std::vector<ChartPoint> in_flight_series(const std::vector<TimelineSample>& timeline, size_t i) {
  std::vector<ChartPoint> points;
  for (const TimelineSample& sample : timeline) {
    const RouterRecord* router = router_of(sample);
    if (router && i < router->replicas.size()) {
      points.push_back({sample.t_ms / 1e3, double(router->replicas[i].in_flight)});
    }
  }
  return points;
}

size_t replica_count(const std::vector<TimelineSample>& timeline) {
  size_t n = 0;
  for (const TimelineSample& sample : timeline) {
    if (const RouterRecord* router = router_of(sample)) n = std::max(n, router->replicas.size());
  }
  return n;
}

void add_faults(const std::optional<TargetStats>& stats, XyChart& chart) {
  if (!stats || !stats->router) return;
  for (const RouterRecord::Fault& f : stats->router->faults) {
    if (!f.error.empty()) continue;  // never injected
    chart.references.push_back(
        {true, f.at_ms / 1e3, "replica " + std::to_string(f.replica) + " killed", "#555555"});
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

#include "gates/report/report_figures.h"

#include <cmath>

#include "common/report/markup_escape.h"
#include "common/report/metric_format.h"
#include "common/report/svg_chart.h"
#include "common/report/svg_stacked_bars.h"
#include "gates/report/report_series.h"

namespace infergate {

namespace {

std::string figure(const std::string& svg) { return "<figure>" + svg + "</figure>\n"; }

std::string note(const std::string& text) {
  return "<p class=\"note\">" + escape_markup(text) + "</p>\n";
}

std::string with_point(const std::string& text, const std::string& point) {
  return point.empty() ? text : text + " @ " + point;
}

struct LatencyMetric {
  const char* key;
  const char* title;
};
constexpr LatencyMetric kLatencyMetrics[] = {
    {"ttft_ms", "TTFT"}, {"tpot_ms", "TPOT"}, {"itl_ms", "ITL"}, {"e2e_ms", "E2E"}};

// The points to chart: the first side's, and any other side's point it lacks.
std::vector<const PointResult*> chart_points(const std::vector<ReportSide>& sides) {
  std::vector<const PointResult*> points;
  for (const ReportSide& side : sides) {
    for (const PointResult& p : side.results->points) {
      bool seen = false;
      for (const PointResult* q : points) seen = seen || q->sweep == p.sweep;
      if (!seen) points.push_back(&p);
    }
  }
  return points;
}

}  // namespace

std::string latency_cdf_figures(const std::vector<ReportSide>& sides) {
  std::string html, missing;
  for (const ReportSide& side : sides) {
    bool any = false;
    for (const PointResult& p : side.results->points) {
      for (const RepetitionResult& r : p.repetitions) any = any || !r.requests.empty();
    }
    if (!any) {
      missing += note("No per-request records in the " + side.name + " (" + side.results->source +
                      "): run with --requests to chart latency distributions.");
    }
  }
  for (const PointResult* like : chart_points(sides)) {
    std::string row;
    for (const LatencyMetric& m : kLatencyMetrics) {
      XyChart chart;
      chart.kind = "latency-cdf";
      chart.title = with_point(std::string(m.title) + " distribution", sweep_point_label(*like));
      chart.x.label = std::string(m.title) + " (ms)";
      chart.y.label = "fraction of requests";
      chart.y.min = 0;
      chart.y.max = 1;
      chart.width = 316;  // four to a row in the report's 1312 px column
      chart.height = 260;
      for (const ReportSide& side : sides) {
        const PointResult* p = point_with_same_sweep(*side.results, *like);
        if (!p) continue;
        std::vector<double> samples = pooled_request_samples(*p, m.key);
        if (samples.empty()) continue;
        const size_t n = samples.size();
        chart.series.push_back({side.name + " (" + std::to_string(n) + ")", side.color,
                                empirical_cdf(std::move(samples)), SeriesStyle::kStep});
      }
      if (has_points(chart)) row += figure(render_xy_chart(chart));
    }
    if (!row.empty()) html += "<div class=\"figures\">\n" + row + "</div>\n";
  }
  return missing + html;
}

std::string throughput_latency_figures(const std::vector<ReportSide>& sides) {
  bool sweep = false;
  for (const ReportSide& side : sides) sweep = sweep || side.results->points.size() > 1;
  if (!sweep) {
    return note(
        "One load point per side: sweep the load (e.g. workloads/rate-sweep.json) for "
        "a throughput-latency curve.");
  }
  const MetricKey throughput = parse_metric_key("summary.request_throughput_rps");
  const std::pair<const char*, const char*> latencies[] = {{"summary.ttft_ms.p95", "TTFT p95"},
                                                           {"summary.tpot_ms.p95", "TPOT p95"}};
  std::string html;
  for (const auto& [key, title] : latencies) {
    XyChart chart;
    chart.kind = "throughput-latency";
    chart.title = std::string(title) + " vs request throughput";
    chart.x.label = "request throughput (req/s)";
    chart.y.label = std::string(title) + " (ms)";
    for (const ReportSide& side : sides) {
      chart.series.push_back({side.name, side.color,
                              sweep_curve(*side.results, throughput, parse_metric_key(key)),
                              SeriesStyle::kLineAndDots});
    }
    if (has_points(chart)) html += figure(render_xy_chart(chart));
  }
  return "<div class=\"figures\">\n" + html + "</div>\n";
}

std::string timeline_figures(const std::vector<ReportSide>& sides) {
  XyChart memory;
  memory.kind = "memory-timeline";
  memory.title = "Resident memory (every repetition)";
  memory.x.label = "time since the repetition started (s)";
  memory.y.label = "RSS (MiB)";
  XyChart utilization;
  utilization.kind = "utilization-timeline";
  utilization.title = "Utilization (every repetition)";
  utilization.x.label = memory.x.label;
  utilization.y.label = "utilization (%, CPU: 100 = one core)";
  utilization.y.min = 0;
  // Every repetition is a line; the legend names each side (and kind) once.
  const auto add = [](XyChart& chart, ChartSeries series, bool& first) {
    if (series.points.empty()) return;
    series.in_legend = first;
    series.opacity = 0.75;
    first = false;
    chart.series.push_back(std::move(series));
  };
  for (const ReportSide& side : sides) {
    bool first_rss = true, first_cpu = true, first_gpu = true;
    for (const PointResult& p : side.results->points) {
      for (const RepetitionResult& r : p.repetitions) {
        add(memory,
            {side.name, side.color,
             timeline_series(r.timeline, &TimelineSample::rss_bytes, 1 << 20)},
            first_rss);
        add(utilization,
            {side.name + " CPU", side.color, timeline_series(r.timeline, &TimelineSample::cpu_pct)},
            first_cpu);
        ChartSeries gpu{side.name + " GPU", side.color,
                        timeline_series(r.timeline, &TimelineSample::gpu_utilization_pct)};
        gpu.dashed = true;
        add(utilization, std::move(gpu), first_gpu);
      }
    }
  }
  if (!has_points(memory) && !has_points(utilization)) {
    return note("No resource samples (repetitions[].timeline) to chart.");
  }
  std::string html = "<div class=\"figures\">\n";
  if (has_points(memory)) html += figure(render_xy_chart(memory));
  if (has_points(utilization)) html += figure(render_xy_chart(utilization));
  return html + "</div>\n";
}

std::string step_breakdown_figure(const std::vector<ReportSide>& sides) {
  StackedBarChart chart;
  chart.kind = "step-breakdown";
  chart.title = "Engine time by step phase (mean per repetition)";
  chart.value_label = "engine time per repetition (ms)";
  chart.width = 640;
  chart.parts.assign(kStepPhases.begin(), kStepPhases.end());
  chart.colors = {"#E69F00", "#56B4E9", "#009E73", "#F0E442", "#CC79A7"};
  std::string notes;
  for (const PointResult* like : chart_points(sides)) {
    for (const ReportSide& side : sides) {
      const PointResult* p = point_with_same_sweep(*side.results, *like);
      if (!p) continue;
      const std::string label = with_point(side.name, sweep_point_label(*p));
      const std::optional<std::vector<double>> times = mean_step_times(*p);
      if (times) {
        chart.bars.push_back({label, *times});
      } else {
        notes += note("No engine step times for " + label +
                      " (repetitions[].engine.step_time_ms is recorded by the in-process engine "
                      "target only); omitted.");
      }
    }
  }
  if (chart.bars.empty()) return notes;
  return notes + "<div class=\"figures\">\n" + figure(render_stacked_bar_chart(chart)) + "</div>\n";
}

std::string repetition_dot_plot(const RuleEvaluation& e) {
  XyChart chart;
  chart.kind = "repetitions";
  chart.title = with_point(e.rule.name, e.point) + ": " + to_string(e.verdict);
  std::string unit = metric_unit(e.rule.metric.metric);
  double scale = 1;  // bytes are drawn in MiB, as the tables print them
  if (unit == "bytes") {
    unit = "MiB";
    scale = 1 << 20;
  }
  chart.x.label = e.rule.metric.text + (unit.empty() ? "" : " (" + unit + ")");
  chart.y.categories = {"candidate", "baseline"};
  chart.width = 440;
  chart.height = 190;
  const auto dots = [scale](const std::vector<double>& values, double row) {
    std::vector<ChartPoint> points;
    for (size_t i = 0; i < values.size(); ++i) {
      points.push_back({values[i] / scale, row + (static_cast<double>(i % 5) - 2) * 0.07});
    }
    return points;
  };
  chart.series.push_back(
      {"baseline", kBaselineColor, dots(e.baseline_values, 1), SeriesStyle::kDots});
  chart.series.push_back(
      {"candidate", kCandidateColor, dots(e.candidate_values, 0), SeriesStyle::kDots});
  if (!has_points(chart)) {
    return note(with_point(e.rule.name, e.point) + ": no per-repetition values (" + e.reason + ")");
  }
  if (std::isfinite(e.baseline) && !e.baseline_values.empty()) {
    chart.references.push_back({true, e.baseline / scale, "baseline mean", kBaselineColor});
    const double sign = e.rule.better == Direction::kLowerIsBetter ? 1 : -1;
    const double threshold = e.baseline * (1 + sign * e.effective_threshold);
    if (e.effective_threshold > 0) {
      chart.references.push_back({true, threshold / scale, "threshold", "#B00020"});
    }
  }
  return figure(render_xy_chart(chart));
}

}  // namespace infergate

#include "gates/report/capacity_figures.h"

#include <cstdio>

#include "common/report/markup_escape.h"
#include "common/report/metric_format.h"
#include "common/report/svg_chart.h"
#include "common/results/frontier.h"

namespace infergate {

namespace {

constexpr const char* kMeetsColor = "#009E73";   // Okabe-Ito bluish green
constexpr const char* kMissesColor = "#CC79A7";  // Okabe-Ito reddish purple: apart from green
                                                 // with colour blindness, unlike red
constexpr const char* kBracketColor = "#555555";
constexpr const char* kCapacityColor = "#222222";

std::string note(const std::string& text) {
  return "<p class=\"note\">" + escape_markup(text) + "</p>\n";
}

std::string with_point(const std::string& text, const std::string& point) {
  return point.empty() ? text : text + " @ " + point;
}

// `color` ("#RRGGBB") mixed with white, for the loads that missed the SLO: the chart draws
// filled dots only, and a paler dot shows in the legend too, unlike an opacity.
std::string pale(const std::string& color) {
  unsigned r = 0, g = 0, b = 0;
  if (color.size() != 7 || std::sscanf(color.c_str(), "#%2x%2x%2x", &r, &g, &b) != 3) return color;
  const auto mix = [](unsigned c) { return c + (255 - c) * 3 / 5; };
  char out[8];
  std::snprintf(out, sizeof out, "#%02X%02X%02X", mix(r), mix(g), mix(b));
  return out;
}

// ---- the frontier ----

std::string point_tooltip(const FrontierPoint& p) {
  std::string text = p.label + ": " + format_number(p.tokens_per_user_s) + " tok/s per user, " +
                     format_number(p.tokens_per_device_s) + " tok/s per device, " +
                     format_number(100 * p.good_fraction) + "% good";
  if (p.meets_slo) text += *p.meets_slo ? ", meets the SLO" : ", misses the SLO";
  return text + (p.on_frontier ? ", on the frontier" : "");
}

// The side's frontier line, then its loads as dots grouped by whether they met the SLO.
void add_frontier(XyChart& chart, const ReportSide& side, const Frontier& f) {
  ChartSeries line{side.name + " frontier", side.color, {}, SeriesStyle::kLine};
  for (const FrontierPoint* p : frontier_line(f)) {
    line.points.emplace_back(p->tokens_per_user_s, p->tokens_per_device_s);
  }
  ChartSeries meets{side.name + " meets the SLO", side.color, {}, SeriesStyle::kDots};
  ChartSeries misses{side.name + " misses the SLO", pale(side.color), {}, SeriesStyle::kDots};
  ChartSeries plain{side.name + " loads", side.color, {}, SeriesStyle::kDots};
  for (const FrontierPoint& p : f.points) {
    ChartSeries& s = !p.meets_slo ? plain : *p.meets_slo ? meets : misses;
    s.points.emplace_back(p.tokens_per_user_s, p.tokens_per_device_s, "", point_tooltip(p));
  }
  for (ChartSeries* s : {&line, &meets, &misses, &plain}) {
    if (!s->points.empty()) chart.series.push_back(std::move(*s));
  }
}

// "baseline: per device = / 2 (tensor_parallel 2 x pipeline_parallel 1), from its sweep; a load
// meets the SLO when 99% of its requests do".
std::string frontier_caption(const ReportSide& side, const Frontier& f) {
  std::string text = side.name + ": per device = / " + std::to_string(f.devices) + " (" +
                     f.devices_note + "), from its " + f.source;
  text += f.share ? "; a load meets the SLO when " + format_number(100 * *f.share) +
                        "% of its requests do"
                  : "; no SLO in the workload, so no load is marked";
  return "<li>" + escape_markup(text) + "</li>\n";
}

// ---- the search's path ----

std::string probe_tooltip(const SearchRecord& s, const SearchProbeRecord& p) {
  return "probe " + std::to_string(p.index) + " (" + p.role + "): " + format_number(p.load) + " " +
         s.unit + ", SLO ratio " + (p.slo_ratio ? format_number(*p.slo_ratio) : "n/a") +
         (p.meets ? ", meets" : ", misses");
}

// Every other category label is left out when there are many probes, so the labels never
// overlap.
std::vector<std::string> probe_categories(size_t n) {
  const size_t every = n > 25 ? (n + 24) / 25 : 1;
  std::vector<std::string> labels(n);
  for (size_t i = 0; i < n; i += every) labels[i] = std::to_string(i);
  return labels;
}

XyChart path_chart(const std::string& title, const SearchRecord& s) {
  XyChart chart;
  chart.kind = "search-path";
  chart.title = title;
  chart.x.label = "probe (in the order run)";
  chart.x.categories = probe_categories(s.probes.size());
  chart.y.label = "load (" + s.unit + ")";
  chart.y.min = 0;
  ChartSeries path{"path", "#999999", {}, SeriesStyle::kLine};
  path.in_legend = false;
  ChartSeries meets{"meets the SLO", kMeetsColor, {}, SeriesStyle::kDots};
  ChartSeries misses{"misses the SLO", kMissesColor, {}, SeriesStyle::kDots};
  for (size_t i = 0; i < s.probes.size(); ++i) {
    const SearchProbeRecord& p = s.probes[i];
    path.points.emplace_back(double(i), p.load);
    (p.meets ? meets : misses).points.emplace_back(double(i), p.load, "", probe_tooltip(s, p));
  }
  if (s.capacity) {  // a solid line across the plot: reference lines are dashed
    const double right = double(s.probes.size()) - 0.5;
    chart.series.push_back({"capacity " + format_number(*s.capacity) + " " + s.unit,
                            kCapacityColor,
                            {{-0.5, *s.capacity}, {right, *s.capacity}}});
  }
  for (ChartSeries* series : {&path, &meets, &misses}) {
    if (!series->points.empty()) chart.series.push_back(std::move(*series));
  }
  if (s.low) {
    chart.references.push_back(
        {false, *s.low, "bracket low " + format_number(*s.low), kBracketColor});
  }
  if (s.high) {
    chart.references.push_back(
        {false, *s.high, "bracket high " + format_number(*s.high), kBracketColor});
  }
  return chart;
}

std::string probe_table(const SearchRecord& s) {
  std::string html = "<table>\n<tr>";
  const std::vector<std::string> headers = {"probe",         "role",  "load (" + s.unit + ")",
                                            "SLO ratio",     "meets", "TTFT p99 (ms)",
                                            "TPOT p99 (ms)", "good"};
  for (const std::string& h : headers) {
    html += "<th>" + escape_markup(h) + "</th>";
  }
  html += "</tr>\n";
  for (const SearchProbeRecord& p : s.probes) {
    html += std::string("<tr class=\"") + (p.meets ? "v-improved" : "v-regressed") + "\">" +
            table_cell(std::to_string(p.index), "num") + table_cell(p.role) +
            table_cell(format_number(p.load), "num") +
            table_cell(p.slo_ratio ? format_number(*p.slo_ratio) : "-", "num") +
            table_cell(p.meets ? "yes" : "no") +
            table_cell(format_number(p.summary.ttft_ms.p99), "num") +
            table_cell(format_number(p.summary.tpot_ms.p99), "num") +
            table_cell(format_number(100 * p.summary.good_fraction) + "%", "num") + "</tr>\n";
  }
  return html + "</table>\n";
}

// "cliff: TTFT p99 71 ms at 60 req/s -> 1732 ms at 120 req/s (24x)", one item per cliff.
std::string cliff_list(const SearchRecord& s) {
  if (s.cliffs.empty()) return "";
  std::string html = "<ul>\n";
  for (const SearchCliffRecord& c : s.cliffs) {
    html += "<li>" +
            escape_markup("cliff: TTFT p99 " + format_number(c.from_ttft_p99_ms) + " ms at " +
                          format_number(c.from_load) + " " + s.unit + " -> " +
                          format_number(c.to_ttft_p99_ms) + " ms at " + format_number(c.to_load) +
                          " " + s.unit + " (" + format_number(c.factor, 2) + "x)") +
            "</li>\n";
  }
  return html + "</ul>\n";
}

std::string search_block(const ReportSide& side, const PointResult& p, const RepetitionResult& r) {
  const SearchRecord& s = *r.search;
  const std::string title =
      with_point(side.name + " repetition " + std::to_string(r.index) + ": capacity search",
                 sweep_point_label(p));
  if (s.probes.empty()) return note(title + ": no probe ran. " + s.verdict);
  return "<div class=\"figures\">\n<figure>" + render_xy_chart(path_chart(title, s)) +
         "<figcaption>" + escape_markup(s.verdict) + "</figcaption></figure>\n" + probe_table(s) +
         "</div>\n" + cliff_list(s);
}

}  // namespace

std::string frontier_figures(const std::vector<ReportSide>& sides) {
  XyChart chart;
  chart.kind = "frontier";
  chart.title = "Throughput frontier";
  chart.x.label = "output tokens/s per user (1 / TPOT p50)";
  chart.y.label = "output tokens/s per device";
  chart.x.min = 0;
  chart.y.min = 0;
  chart.width = 640;
  chart.height = 380;
  std::string captions, missing;
  for (const ReportSide& side : sides) {
    const std::optional<Frontier> f = frontier_of(*side.results);
    if (!f) {
      missing += (missing.empty() ? "" : ", ") + side.name;
      continue;
    }
    add_frontier(chart, side, *f);
    captions += frontier_caption(side, *f);
  }
  const std::string why =
      "needs a load.rate or load.concurrency sweep of 2 or more points with a TPOT p50, or a "
      "capacity search (load.search)";
  if (!has_points(chart)) return note("No throughput frontier: it " + why + ".");
  const std::string notes =
      missing.empty() ? ""
                      : note("No throughput frontier for the " + missing + ": it " + why + ".");
  // The captions go below as a list: a long one inside the figure would widen it.
  return notes + "<div class=\"figures\">\n<figure>" + render_xy_chart(chart) +
         "</figure>\n</div>\n<ul>\n" + captions + "</ul>\n";
}

std::string search_path_figures(const std::vector<ReportSide>& sides) {
  std::string html;
  for (const ReportSide& side : sides) {
    for (const PointResult& p : side.results->points) {
      const RepetitionResult* first = nullptr;
      size_t more = 0;
      for (const RepetitionResult& r : p.repetitions) {
        if (r.search && !first) {
          first = &r;
        } else if (r.search) {
          ++more;
        }
      }
      if (!first) continue;
      html += search_block(side, p, *first);
      if (more > 0) {
        html += note(with_point(side.name, sweep_point_label(p)) + ": " + std::to_string(more) +
                     " more repetition(s) searched too; the first is drawn.");
      }
    }
  }
  if (!html.empty()) return html;
  return note(
      "No capacity search (repetitions[].search): give the workload a load.search to find the "
      "highest load at which the SLO holds.");
}

}  // namespace infergate

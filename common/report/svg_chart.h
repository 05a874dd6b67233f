// An x/y chart rendered as inline SVG (no script, no external assets): lines, CDF steps or dots
// per series, labelled axes with nice ticks, grid, dashed reference lines and a legend. An axis
// may be categorical (category i sits at value i), which makes a dot plot.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace infergate {

struct ChartPoint {
  ChartPoint() = default;
  ChartPoint(double x_, double y_, std::string link_ = "", std::string label_ = "")
      : x(x_), y(y_), link(std::move(link_)), label(std::move(label_)) {}

  double x = 0, y = 0;
  std::string link;   // a dot drawn as a link to this page (the trends dashboard's runs)
  std::string label;  // a dot's tooltip
};

enum class SeriesStyle {
  kLine,
  kStep,  // a cumulative distribution: horizontal to the next x, then up
  kDots,
  kLineAndDots,
};

struct ChartSeries {
  std::string name;
  std::string color;
  std::vector<ChartPoint> points;
  SeriesStyle style = SeriesStyle::kLine;
  bool dashed = false;
  bool in_legend = true;  // false for the 2nd..nth line of a group the legend names once
  double opacity = 1;
};

struct ChartAxis {
  std::string label;                    // with the unit, e.g. "TTFT (ms)"
  std::optional<double> min, max;       // fixed ends; otherwise the data's range widened to ticks
  std::vector<std::string> categories;  // non-empty: categorical, category i at value i
};

struct ReferenceLine {
  bool vertical = true;  // at x = value; otherwise horizontal at y = value
  double value = 0;
  std::string label;
  std::string color = "#555555";
};

struct XyChart {
  std::string kind;  // written as data-chart="...", e.g. "latency-cdf"
  std::string title;
  ChartAxis x, y;
  std::vector<ChartSeries> series;
  std::vector<ReferenceLine> references;
  int width = 560, height = 320;
};

// Whether any series has a finite point to draw.
bool has_points(const XyChart& chart);
// The <svg> element. Non-finite points are skipped.
std::string render_xy_chart(const XyChart& chart);

}  // namespace infergate

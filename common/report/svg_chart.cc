#include "common/report/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "common/report/axis_ticks.h"
#include "common/report/markup_escape.h"
#include "common/report/svg_frame.h"
#include "common/report/svg_legend.h"

namespace infergate {

namespace {

constexpr double kRight = 18, kBottom = 44, kTitleHeight = 26;

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

bool finite(const ChartPoint& p) { return std::isfinite(p.x) && std::isfinite(p.y); }

// An axis's ticks: categories, or nice ticks over the data and reference values.
AxisTicks axis_ticks(const ChartAxis& axis, std::vector<double> values) {
  if (!axis.categories.empty()) {
    AxisTicks t;
    t.lo = -0.5;
    t.hi = static_cast<double>(axis.categories.size()) - 0.5;
    for (size_t i = 0; i < axis.categories.size(); ++i) t.values.push_back(static_cast<double>(i));
    return t;
  }
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const double v : values) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  if (axis.min) lo = *axis.min;
  if (axis.max) hi = *axis.max;
  AxisTicks t = nice_ticks(lo, hi);
  if (axis.min) t.lo = *axis.min;
  if (axis.max) t.hi = *axis.max;
  t.values.erase(std::remove_if(t.values.begin(), t.values.end(),
                                [&](double v) { return v < t.lo - 1e-9 || v > t.hi + 1e-9; }),
                 t.values.end());
  return t;
}

std::string label_of(const ChartAxis& axis, const AxisTicks& t, size_t i) {
  return axis.categories.empty() ? tick_label(t.values[i], t.step) : axis.categories[i];
}

// Maps data to pixels inside the plot area.
struct Frame {
  double left, top, right, bottom;
  AxisTicks x, y;
  double px(double v) const { return left + (v - x.lo) / (x.hi - x.lo) * (right - left); }
  double py(double v) const { return bottom - (v - y.lo) / (y.hi - y.lo) * (bottom - top); }
};

std::string axes(const XyChart& chart, const Frame& f) {
  std::string svg = "<g class=\"axes\" font-size=\"11\" fill=\"#333\">";
  for (size_t i = 0; i < f.y.values.size(); ++i) {
    const std::string y = num(f.py(f.y.values[i]));
    svg += "<line x1=\"" + num(f.left) + "\" y1=\"" + y + "\" x2=\"" + num(f.right) + "\" y2=\"" +
           y + "\" stroke=\"#e4e4e4\"/>";
    svg += "<text x=\"" + num(f.left - 6) + "\" y=\"" + num(f.py(f.y.values[i]) + 4) +
           "\" text-anchor=\"end\">" + escape_markup(label_of(chart.y, f.y, i)) + "</text>";
  }
  for (size_t i = 0; i < f.x.values.size(); ++i) {
    const std::string x = num(f.px(f.x.values[i]));
    svg += "<line x1=\"" + x + "\" y1=\"" + num(f.top) + "\" x2=\"" + x + "\" y2=\"" +
           num(f.bottom) + "\" stroke=\"#e4e4e4\"/>";
    svg += "<line x1=\"" + x + "\" y1=\"" + num(f.bottom) + "\" x2=\"" + x + "\" y2=\"" +
           num(f.bottom + 4) + "\" stroke=\"#333\"/>";
    svg += "<text x=\"" + x + "\" y=\"" + num(f.bottom + 16) + "\" text-anchor=\"middle\">" +
           escape_markup(label_of(chart.x, f.x, i)) + "</text>";
  }
  svg += "<rect x=\"" + num(f.left) + "\" y=\"" + num(f.top) + "\" width=\"" +
         num(f.right - f.left) + "\" height=\"" + num(f.bottom - f.top) +
         "\" fill=\"none\" stroke=\"#333\"/>";
  svg += "<text x=\"" + num((f.left + f.right) / 2) + "\" y=\"" + num(chart.height - 8.0) +
         "\" text-anchor=\"middle\">" + escape_markup(chart.x.label) + "</text>";
  svg += "<text transform=\"rotate(-90)\" x=\"" + num(-(f.top + f.bottom) / 2) +
         "\" y=\"14\" text-anchor=\"middle\">" + escape_markup(chart.y.label) + "</text>";
  return svg + "</g>";
}

std::string polyline(const std::vector<ChartPoint>& pts, const ChartSeries& s, const Frame& f) {
  std::string coords;
  ChartPoint previous{0, f.y.lo};
  bool first = true;
  for (const ChartPoint& p : pts) {
    if (s.style == SeriesStyle::kStep) {
      coords += num(f.px(p.x)) + "," + num(f.py(first ? f.y.lo : previous.y)) + " ";
    }
    coords += num(f.px(p.x)) + "," + num(f.py(p.y)) + " ";
    previous = p;
    first = false;
  }
  if (!coords.empty()) coords.pop_back();
  return "<polyline fill=\"none\" stroke=\"" + escape_markup(s.color) +
         "\" stroke-width=\"1.8\" stroke-linejoin=\"round\"" +
         (s.dashed ? " stroke-dasharray=\"6 3\"" : "") + " points=\"" + coords + "\"/>";
}

std::string series_svg(const ChartSeries& s, const Frame& f) {
  std::vector<ChartPoint> pts;
  for (const ChartPoint& p : s.points) {
    if (finite(p)) pts.push_back(p);
  }
  if (pts.empty()) return "";
  std::string svg = "<g class=\"series\"";
  if (s.opacity < 1) svg += " opacity=\"" + num(s.opacity) + "\"";
  svg += "><title>" + escape_markup(s.name) + "</title>";
  if (s.style != SeriesStyle::kDots) svg += polyline(pts, s, f);
  if (s.style == SeriesStyle::kDots || s.style == SeriesStyle::kLineAndDots) {
    for (const ChartPoint& p : pts) {
      const std::string title =
          p.label.empty() ? "" : "<title>" + escape_markup(p.label) + "</title>";
      const std::string dot = "<circle cx=\"" + num(f.px(p.x)) + "\" cy=\"" + num(f.py(p.y)) +
                              "\" r=\"3.5\" fill=\"" + escape_markup(s.color) +
                              "\" stroke=\"#fff\" stroke-width=\"0.6\"" +
                              (title.empty() ? "/>" : ">" + title + "</circle>");
      svg += p.link.empty() ? dot : "<a href=\"" + escape_markup(p.link) + "\">" + dot + "</a>";
    }
  }
  return svg + "</g>";
}

// The `index`th reference line; labels of successive lines are staggered so they do not overlap.
std::string reference_svg(const ReferenceLine& r, size_t index, const Frame& f) {
  const double stagger = 11.0 * static_cast<double>(index % 3);
  const std::string color = escape_markup(r.color);
  std::string svg = "<g class=\"reference\" font-size=\"10\" fill=\"" + color + "\">";
  if (r.vertical) {
    const std::string x = num(f.px(r.value));
    svg += "<line x1=\"" + x + "\" y1=\"" + num(f.top) + "\" x2=\"" + x + "\" y2=\"" +
           num(f.bottom) + "\" stroke=\"" + color + "\" stroke-dasharray=\"4 3\"/>";
    // The label right of the line, or left of it when it would run past the plot.
    const bool left = f.px(r.value) + 3 + text_width(r.label, 10) > f.right;
    svg += "<text x=\"" + num(f.px(r.value) + (left ? -3 : 3)) + "\" y=\"" +
           num(f.top + 11 + stagger) + "\"" + (left ? " text-anchor=\"end\"" : "") + ">" +
           escape_markup(r.label) + "</text>";
  } else {
    const std::string y = num(f.py(r.value));
    svg += "<line x1=\"" + num(f.left) + "\" y1=\"" + y + "\" x2=\"" + num(f.right) + "\" y2=\"" +
           y + "\" stroke=\"" + color + "\" stroke-dasharray=\"4 3\"/>";
    svg += "<text x=\"" + num(f.right - 3) + "\" y=\"" + num(f.py(r.value) - 3 - stagger) +
           "\" text-anchor=\"end\">" + escape_markup(r.label) + "</text>";
  }
  return svg + "</g>";
}

}  // namespace

bool has_points(const XyChart& chart) {
  for (const ChartSeries& s : chart.series) {
    for (const ChartPoint& p : s.points) {
      if (finite(p)) return true;
    }
  }
  return false;
}

std::string render_xy_chart(const XyChart& chart) {
  std::vector<double> xs, ys;
  std::vector<LegendEntry> entries;
  for (const ChartSeries& s : chart.series) {
    for (const ChartPoint& p : s.points) {
      if (!finite(p)) continue;
      xs.push_back(p.x);
      ys.push_back(p.y);
    }
    if (!s.in_legend) continue;
    LegendEntry::Swatch swatch =
        s.dashed ? LegendEntry::Swatch::kDashedLine : LegendEntry::Swatch::kLine;
    if (s.style == SeriesStyle::kDots) swatch = LegendEntry::Swatch::kDot;
    entries.push_back({s.name, s.color, swatch});
  }
  for (const ReferenceLine& r : chart.references) {
    if (std::isfinite(r.value)) (r.vertical ? xs : ys).push_back(r.value);
  }
  Frame f;
  f.x = axis_ticks(chart.x, xs);
  f.y = axis_ticks(chart.y, ys);
  double label_width = 0;
  for (size_t i = 0; i < f.y.values.size(); ++i) {
    label_width = std::max(label_width, text_width(label_of(chart.y, f.y, i)));
  }
  f.left = 30 + label_width;
  f.right = chart.width - kRight;
  const Legend legend = svg_legend(entries, f.left, kTitleHeight, f.right - f.left);
  f.top = kTitleHeight + legend.height + 10;
  f.bottom = chart.height - kBottom;

  std::string svg = svg_chart_open(chart.kind, chart.title, chart.width, chart.height);
  svg += legend.svg;
  svg += axes(chart, f);
  for (size_t i = 0; i < chart.references.size(); ++i) {
    if (std::isfinite(chart.references[i].value)) svg += reference_svg(chart.references[i], i, f);
  }
  for (const ChartSeries& s : chart.series) svg += series_svg(s, f);
  return svg + "</svg>";
}

}  // namespace infergate

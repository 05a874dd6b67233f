#include "common/report/svg_stacked_bars.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/report/axis_ticks.h"
#include "common/report/markup_escape.h"
#include "common/report/svg_frame.h"
#include "common/report/svg_legend.h"

namespace infergate {

namespace {

constexpr double kBarHeight = 26, kBarGap = 12, kTitleHeight = 26, kBottom = 44, kRight = 70;

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

double part_value(const StackedBar& bar, size_t i) {
  const double v = i < bar.values.size() ? bar.values[i] : 0;
  return std::isfinite(v) && v > 0 ? v : 0;
}

double total(const StackedBar& bar) {
  double sum = 0;
  for (size_t i = 0; i < bar.values.size(); ++i) sum += part_value(bar, i);
  return sum;
}

}  // namespace

std::string render_stacked_bar_chart(const StackedBarChart& chart) {
  double label_width = 0, max_total = 0;
  for (const StackedBar& bar : chart.bars) {
    label_width = std::max(label_width, text_width(bar.label));
    max_total = std::max(max_total, total(bar));
  }
  const double left = 16 + label_width, right = chart.width - kRight;
  std::vector<LegendEntry> entries;
  for (size_t i = 0; i < chart.parts.size(); ++i) {
    entries.push_back({chart.parts[i], chart.colors.at(i), LegendEntry::Swatch::kBox});
  }
  const Legend legend = svg_legend(entries, left, kTitleHeight, right - left);
  const double top = kTitleHeight + legend.height + 10;
  const double bottom = top + chart.bars.size() * (kBarHeight + kBarGap) + kBarGap;
  const int height = static_cast<int>(bottom + kBottom);
  AxisTicks ticks = nice_ticks(0, max_total);
  ticks.lo = 0;
  auto px = [&](double v) { return left + v / ticks.hi * (right - left); };

  std::string svg = svg_chart_open(chart.kind, chart.title, chart.width, height);
  svg += legend.svg;
  svg += "<g class=\"axes\" font-size=\"11\" fill=\"#333\">";
  for (const double v : ticks.values) {
    if (v < 0) continue;
    svg += "<line x1=\"" + num(px(v)) + "\" y1=\"" + num(top) + "\" x2=\"" + num(px(v)) +
           "\" y2=\"" + num(bottom) + "\" stroke=\"#e4e4e4\"/>";
    svg += "<text x=\"" + num(px(v)) + "\" y=\"" + num(bottom + 16) + "\" text-anchor=\"middle\">" +
           tick_label(v, ticks.step) + "</text>";
  }
  svg += "<line x1=\"" + num(left) + "\" y1=\"" + num(bottom) + "\" x2=\"" + num(right) +
         "\" y2=\"" + num(bottom) + "\" stroke=\"#333\"/>";
  svg += "<text x=\"" + num((left + right) / 2) + "\" y=\"" + num(height - 8.0) +
         "\" text-anchor=\"middle\">" + escape_markup(chart.value_label) + "</text></g>";
  double y = top + kBarGap;
  for (const StackedBar& bar : chart.bars) {
    svg += "<g class=\"bar\" font-size=\"11\"><text x=\"" + num(left - 6) + "\" y=\"" +
           num(y + kBarHeight / 2 + 4) + "\" text-anchor=\"end\">" + escape_markup(bar.label) +
           "</text>";
    double x = 0;
    for (size_t i = 0; i < chart.parts.size(); ++i) {
      const double v = part_value(bar, i);
      if (v <= 0) continue;
      svg += "<rect x=\"" + num(px(x)) + "\" y=\"" + num(y) + "\" width=\"" +
             num(px(x + v) - px(x)) + "\" height=\"" + num(kBarHeight) + "\" fill=\"" +
             escape_markup(chart.colors.at(i)) + "\"><title>" +
             escape_markup(bar.label + ", " + chart.parts[i] + ": " + tick_label(v, 0.1)) +
             "</title></rect>";
      x += v;
    }
    svg += "<text x=\"" + num(px(x) + 4) + "\" y=\"" + num(y + kBarHeight / 2 + 4) + "\">" +
           tick_label(x, 1) + "</text></g>";
    y += kBarHeight + kBarGap;
  }
  return svg + "</svg>";
}

}  // namespace infergate

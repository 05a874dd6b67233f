// A horizontal stacked bar chart as inline SVG: one bar per label, one coloured segment per
// part (e.g. the engine's schedule / execute / sample / update time), a value axis and a legend.
#pragma once

#include <string>
#include <vector>

namespace infergate {

struct StackedBar {
  std::string label;           // e.g. "baseline"
  std::vector<double> values;  // one per part; negative or non-finite values count as 0
};

struct StackedBarChart {
  std::string kind;  // written as data-chart="..."
  std::string title;
  std::string value_label;  // the value axis, with the unit
  std::vector<std::string> parts;
  std::vector<std::string> colors;  // one per part
  std::vector<StackedBar> bars;
  int width = 560;
};

std::string render_stacked_bar_chart(const StackedBarChart& chart);

}  // namespace infergate

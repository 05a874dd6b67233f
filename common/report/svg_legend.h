// A chart legend in SVG: one swatch and name per entry, laid out left to right and wrapped to
// the chart's width. Shared by the line and bar charts.
#pragma once

#include <string>
#include <vector>

namespace infergate {

struct LegendEntry {
  std::string name;
  std::string color;
  enum class Swatch { kLine, kDashedLine, kDot, kBox } swatch = Swatch::kLine;
};

struct Legend {
  std::string svg;  // the <g> element, empty without entries
  double height = 0;
};

// The legend starting at (x, y) (top left), wrapping before `max_width`.
Legend svg_legend(const std::vector<LegendEntry>& entries, double x, double y, double max_width);
// A rough width of `text` in the charts' 11 px sans-serif font, for layout.
double text_width(const std::string& text, double font_px = 11);

}  // namespace infergate

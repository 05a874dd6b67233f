#include "common/report/svg_frame.h"

#include "common/report/markup_escape.h"

namespace infergate {

std::string svg_chart_open(const std::string& kind, const std::string& title, int width,
                           int height) {
  const std::string w = std::to_string(width), h = std::to_string(height);
  std::string svg = "<svg class=\"chart\" data-chart=\"" + escape_markup(kind) +
                    "\" viewBox=\"0 0 " + w + " " + h + "\" width=\"" + w + "\" height=\"" + h +
                    "\" role=\"img\" font-family=\"system-ui, sans-serif\">";
  svg += "<title>" + escape_markup(title) + "</title>";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>";
  svg += "<text x=\"12\" y=\"18\" font-size=\"13\" font-weight=\"600\">" + escape_markup(title) +
         "</text>";
  return svg;
}

}  // namespace infergate

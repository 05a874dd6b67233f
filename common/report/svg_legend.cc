#include "common/report/svg_legend.h"

#include <cstdio>

#include "common/report/markup_escape.h"

namespace infergate {

namespace {

constexpr double kRowHeight = 16;
constexpr double kSwatchWidth = 18;

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string swatch(const LegendEntry& e, double x, double y) {
  const std::string color = escape_markup(e.color);
  switch (e.swatch) {
    case LegendEntry::Swatch::kDot:
      return "<circle cx=\"" + num(x + kSwatchWidth / 2) + "\" cy=\"" + num(y) +
             "\" r=\"4\" fill=\"" + color + "\"/>";
    case LegendEntry::Swatch::kBox:
      return "<rect x=\"" + num(x + 3) + "\" y=\"" + num(y - 5) +
             "\" width=\"12\" height=\"10\" fill=\"" + color + "\"/>";
    case LegendEntry::Swatch::kDashedLine:
    case LegendEntry::Swatch::kLine:
      break;
  }
  return "<line x1=\"" + num(x) + "\" y1=\"" + num(y) + "\" x2=\"" + num(x + kSwatchWidth) +
         "\" y2=\"" + num(y) + "\" stroke=\"" + color + "\" stroke-width=\"2.5\"" +
         (e.swatch == LegendEntry::Swatch::kDashedLine ? " stroke-dasharray=\"5 3\"" : "") + "/>";
}

}  // namespace

double text_width(const std::string& text, double font_px) {
  double chars = 0;
  for (const char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) chars += 1;  // count UTF-8 code points
  }
  return chars * font_px * 0.58;
}

Legend svg_legend(const std::vector<LegendEntry>& entries, double x, double y, double max_width) {
  Legend legend;
  if (entries.empty()) return legend;
  legend.svg = "<g class=\"legend\" font-size=\"11\">";
  double cx = x, cy = y + kRowHeight / 2;
  for (const LegendEntry& e : entries) {
    const double w = kSwatchWidth + 5 + text_width(e.name) + 14;
    if (cx > x && cx + w > x + max_width) {
      cx = x;
      cy += kRowHeight;
    }
    legend.svg += swatch(e, cx, cy);
    legend.svg += "<text x=\"" + num(cx + kSwatchWidth + 5) + "\" y=\"" + num(cy + 4) + "\">" +
                  escape_markup(e.name) + "</text>";
    cx += w;
  }
  legend.svg += "</g>";
  legend.height = cy - y + kRowHeight / 2;
  return legend;
}

}  // namespace infergate

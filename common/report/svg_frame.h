// The opening every chart of the reports shares: the <svg> element with its kind and size, an
// accessible title, a white background and the visible title. Close it with "</svg>".
#pragma once

#include <string>

namespace infergate {

std::string svg_chart_open(const std::string& kind, const std::string& title, int width,
                           int height);

}  // namespace infergate

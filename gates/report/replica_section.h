// A router target's replicas over time (results: repetitions[].timeline[].engine.router and
// repetitions[].engine.router, docs/router.md): requests in flight at each replica, a line per
// replica per repetition, with a vertical line where a fault killed one. An HTML fragment; a
// note when no side ran a router target.
#pragma once

#include <string>
#include <vector>

#include "gates/report/report_figures.h"

namespace infergate {

std::string replica_section(const std::vector<ReportSide>& sides);

}  // namespace infergate

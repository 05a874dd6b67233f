// What a multi-rank engine spent on communication (results: repetitions[].engine.parallel,
// docs/parallelism.md): per side and point, each collective's calls, bytes and time per engine
// step on rank 0, and the pipeline bubble and expert load when present. An HTML fragment.
#pragma once

#include <string>
#include <vector>

#include "gates/report/report_figures.h"

namespace infergate {

std::string communication_section(const std::vector<ReportSide>& sides);

}  // namespace infergate

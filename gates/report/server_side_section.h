// An HTTP target's client and server side by side (results: repetitions[].server, a
// ServerSideRecord, docs/results-schema.md): per repetition whose server exposed its latency
// histograms, the client's TTFT and ITL beside the server's own, and the cross-check's flag and
// reason. An HTML fragment; a note when no repetition has server data.
#pragma once

#include <string>
#include <vector>

#include "gates/report/report_figures.h"

namespace infergate {

std::string server_side_section(const std::vector<ReportSide>& sides);

}  // namespace infergate

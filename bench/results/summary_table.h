// The table `infergate run` prints at the end: the six headline numbers (and a few more) for
// every sweep point, read back from the results document itself, and below it how many
// requests failed and why, so a run whose requests failed never reads as a run that measured
// zero.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "common/results/results_file.h"

namespace infergate {

void print_summary_table(std::ostream& out, const nlohmann::json& results);

// The failed requests of every point of a results document, with its label ("" without a
// sweep).
struct LabelledPointErrors {
  std::string label;
  PointErrors errors;
};
std::vector<LabelledPointErrors> errors_by_point(const nlohmann::json& results);

}  // namespace infergate

// Results whose requests failed are not measurements of the code: `compare` and `baseline
// update` refuse a side whose share of failed requests, at any sweep point, is above the rules'
// error-share limit (docs/gates.md, "Failed requests").
#pragma once

#include <string>
#include <vector>

#include "common/results/results_file.h"
#include "gates/rules/rule_set.h"

namespace infergate {

// One line per point of `results` above the limit, naming the side, the file, the counts, the
// error classes and the limit: "candidate out/c.json: 24 of 24 requests failed: connection
// refused: 24 (first: ...); above the 1% limit of rule 'error-share'". Empty when none is.
std::vector<std::string> error_share_excesses(const ResultsFile& results, const RuleSet& rules,
                                              const std::string& side);

}  // namespace infergate

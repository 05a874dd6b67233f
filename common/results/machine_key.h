// The machine a result was measured on, as a folder name for the baseline store: CPU model,
// core count and GPUs (not the hostname, so every CI runner of one kind shares baselines).
#pragma once

#include <string>

#include "common/results/results_file.h"

namespace infergate {

// e.g. "intel-xeon-platinum-8481c-2c" or "amd-epyc-9654-16c-1x-nvidia-h200"; lower case,
// [a-z0-9-] only. A simulated run's is "simulated-" and its hardware's name ("simulated-h100-sxm").
std::string machine_key(const ResultsFile& results);

}  // namespace infergate

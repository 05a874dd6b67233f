// The command line that reruns a comparison, printed at the end of every report, with each
// argument quoted for a POSIX shell where it needs it.
#pragma once

#include <string>

#include "gates/verdict/comparison.h"

namespace infergate {

// "infergate compare BASELINE CANDIDATE --rules RULES", plus --allow-env-diff when the
// fingerprints differed and the comparison went ahead anyway. --rules is left out for the
// built-in default rules.
std::string reproduce_command(const Comparison& comparison);

}  // namespace infergate

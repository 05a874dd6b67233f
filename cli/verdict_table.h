// The terminal rendering of a comparison: one line per rule evaluation, then the headline.
#pragma once

#include <ostream>

#include "gates/verdict/comparison.h"

namespace infergate {

void print_verdict_table(std::ostream& out, const Comparison& comparison);

}  // namespace infergate

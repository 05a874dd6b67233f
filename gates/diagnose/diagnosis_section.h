// The HTML report's "Diagnosis" section (docs/diagnose.md): the dominant symptom and the others
// with their evidence, each symptom's ranked remedies as --set lines, and what --verify measured
// for each (ratio, interval, outcome). An HTML fragment; "nothing to fix" for a healthy run.
#pragma once

#include <string>

#include "gates/diagnose/diagnosis.h"

namespace infergate {

std::string diagnosis_section(const Diagnosis& diagnosis);

}  // namespace infergate

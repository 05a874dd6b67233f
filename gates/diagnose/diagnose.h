// `infergate diagnose`'s judgement of one results file: every sweep point's measurements walked
// through the rule table (diagnosis_rules.h) in the decision tree's order, so the first finding
// is the dominant symptom (docs/diagnose.md).
#pragma once

#include "common/results/results_file.h"
#include "gates/diagnose/diagnosis.h"

namespace infergate {

// Throws ResultsError naming the file and the JSON path when the results lack what every rule
// reads (the summary's latency statistics, a completed request).
Diagnosis diagnose(const ResultsFile& results);

}  // namespace infergate

// The one table of diagnose's rules (docs/diagnose.md keeps it as a decision tree): each rule
// is a question about one sweep point's measurements, the symptom it names when the answer is
// yes, its evidence in numbers, and its remedies as workload overrides, best first. The table's
// order is the tree's: a rule earlier in it explains, or invalidates, what the later ones see
// (a harness that fell behind makes every latency suspect; preemptions inflate every tail).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gates/diagnose/diagnosis.h"
#include "gates/diagnose/run_measurements.h"

namespace infergate {

struct DiagnosisRule {
  const char* id;        // "kv-memory-wall"
  const char* question;  // the tree's question, "Did the KV cache run out?"
  // Yes: the finding with its remedies. No: nullopt; a rule that cannot judge (a figure the
  // results lack) says why in `notes`.
  std::optional<Finding> (*check)(const RunMeasurements& m, std::vector<std::string>& notes);
};

// Every rule, in the decision tree's order.
const std::vector<DiagnosisRule>& diagnosis_rules();

}  // namespace infergate

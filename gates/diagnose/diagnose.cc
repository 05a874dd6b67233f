#include "gates/diagnose/diagnose.h"

#include <algorithm>

#include "gates/diagnose/diagnosis_rules.h"
#include "gates/diagnose/run_measurements.h"

namespace infergate {

namespace {

void add_note(Diagnosis& d, const std::string& point, const std::string& note) {
  const std::string line = point.empty() ? note : point + ": " + note;
  if (std::find(d.notes.begin(), d.notes.end(), line) == d.notes.end()) d.notes.push_back(line);
}

}  // namespace

Diagnosis diagnose(const ResultsFile& results) {
  Diagnosis d;
  d.results_path = results.source;
  d.workload_name = results.workload_name;
  std::vector<RunMeasurements> points;
  for (size_t i = 0; i < std::max<size_t>(1, results.points.size()); ++i) {
    points.push_back(measure_point(results, i));  // throws for an empty file
  }
  for (const DiagnosisRule& rule : diagnosis_rules()) {
    for (const RunMeasurements& m : points) {
      std::vector<std::string> notes;
      if (std::optional<Finding> f = rule.check(m, notes)) d.findings.push_back(std::move(*f));
      for (const std::string& n : notes) add_note(d, m.point, n);
    }
  }
  return d;
}

}  // namespace infergate

#include "gates/diagnose/diagnosis.h"

#include <cmath>
#include <sstream>

namespace infergate {

namespace {

nlohmann::json number_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nullptr; }

nlohmann::json check_to_json(const RemedyCheck& c) {
  return {{"outcome", c.outcome},
          {"reason", c.reason},
          {"pairs", c.pairs},
          {"seconds", c.seconds},
          {"ratio", number_or_null(c.ratio)},
          {"ratio_interval", {number_or_null(c.ratio_lo), number_or_null(c.ratio_hi)}},
          {"out_dir", c.out_dir}};
}

nlohmann::json remedy_to_json(const Remedy& r, size_t rank) {
  nlohmann::json j = {{"rank", rank},
                      {"name", r.name},
                      {"sets", r.sets},
                      {"expected", r.expected},
                      {"cost", r.cost},
                      {"metric", r.metric},
                      {"better", to_string(r.better)}};
  j["command"] = r.command.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.command);
  j["verification"] = r.check ? check_to_json(*r.check) : nlohmann::json(nullptr);
  return j;
}

void write_remedy(std::ostringstream& out, const Remedy& r, size_t rank) {
  out << "  " << rank << ". " << r.name << ": " << remedy_overrides(r) << "\n"
      << "     expected: " << r.expected << "\n"
      << "     cost: " << r.cost << "\n";
  if (r.check) {
    out << "     verified: " << r.check->outcome << ": " << r.check->reason << "\n";
  }
}

}  // namespace

std::string remedy_overrides(const Remedy& r) {
  if (r.sets.empty()) return r.command;
  std::string s;
  for (const std::string& set : r.sets) s += (s.empty() ? "--set " : " --set ") + set;
  return s;
}

nlohmann::json diagnosis_to_json(const Diagnosis& d) {
  nlohmann::json findings = nlohmann::json::array();
  for (const Finding& f : d.findings) {
    nlohmann::json remedies = nlohmann::json::array();
    for (size_t i = 0; i < f.remedies.size(); ++i)
      remedies.push_back(remedy_to_json(f.remedies[i], i + 1));
    findings.push_back(
        {{"rule", f.rule},
         {"symptom", f.symptom},
         {"point", f.point.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.point)},
         {"evidence", f.evidence},
         {"measurements", f.measurements},
         {"remedies", remedies}});
  }
  return {
      {"schema", kDiagnosisSchema},
      {"results", d.results_path},
      {"workload", d.workload_name},
      {"workload_path",
       d.workload_path.empty() ? nlohmann::json(nullptr) : nlohmann::json(d.workload_path)},
      {"healthy", d.healthy()},
      {"dominant", d.healthy() ? nlohmann::json(nullptr) : nlohmann::json(d.findings[0].rule)},
      {"summary", d.healthy() ? "nothing to fix" : d.findings[0].symptom},
      {"findings", findings},
      {"notes", d.notes},
      {"verify_budget_minutes", d.verify_budget_minutes ? nlohmann::json(*d.verify_budget_minutes)
                                                        : nlohmann::json(nullptr)}};
}

std::string diagnosis_text(const Diagnosis& d) {
  std::ostringstream out;
  out << d.workload_name << " (" << d.results_path << "): ";
  if (d.healthy()) {
    out << "nothing to fix: no rule of the decision tree fired (docs/diagnose.md)\n";
  } else {
    out << "dominant symptom: " << d.findings[0].symptom << "\n";
  }
  for (size_t i = 0; i < d.findings.size(); ++i) {
    const Finding& f = d.findings[i];
    out << "\n"
        << (i == 0 ? "[dominant] " : "[also] ") << f.symptom
        << (f.point.empty() ? "" : " at " + f.point) << " (" << f.rule << ")\n  " << f.evidence
        << "\n remedies, best first:\n";
    for (size_t k = 0; k < f.remedies.size(); ++k) write_remedy(out, f.remedies[k], k + 1);
  }
  if (!d.notes.empty()) out << "\ncould not judge:\n";
  for (const std::string& n : d.notes) out << "  - " << n << "\n";
  return out.str();
}

}  // namespace infergate

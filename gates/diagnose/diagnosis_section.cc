#include "gates/diagnose/diagnosis_section.h"

#include "common/report/markup_escape.h"

namespace infergate {

namespace {

// Table row colours of the verdict rows: confirmed green, worse red, the rest amber.
const char* row_class(const Remedy& r) {
  if (!r.check) return "";
  if (r.check->outcome == "confirmed") return " class=\"v-improved\"";
  if (r.check->outcome == "worse") return " class=\"v-regressed\"";
  return " class=\"v-inconclusive\"";
}

std::string remedies_table(const Finding& f) {
  std::string html =
      "<table>\n<tr><th>#</th><th>remedy</th><th>overrides</th><th>expected</th><th>cost</th>"
      "<th>verified</th></tr>\n";
  for (size_t i = 0; i < f.remedies.size(); ++i) {
    const Remedy& r = f.remedies[i];
    html += std::string("<tr") + row_class(r) + ">" + table_cell(std::to_string(i + 1), "num") +
            table_cell(r.name) + "<td><code>" + escape_markup(remedy_overrides(r)) +
            "</code></td>" + table_cell(r.expected + " (" + r.metric + ")") + table_cell(r.cost) +
            table_cell(r.check ? r.check->outcome + ": " + r.check->reason
                               : "not verified (--verify)") +
            "</tr>\n";
  }
  return html + "</table>\n";
}

}  // namespace

std::string diagnosis_section(const Diagnosis& d) {
  if (d.healthy()) {
    return "<p><b>Nothing to fix</b>: no rule of the decision tree fired (docs/diagnose.md).</p>\n";
  }
  std::string html;
  for (size_t i = 0; i < d.findings.size(); ++i) {
    const Finding& f = d.findings[i];
    html += std::string("<h3>") + (i == 0 ? "Dominant: " : "Also: ") + escape_markup(f.symptom) +
            (f.point.empty() ? "" : " at " + escape_markup(f.point)) + " <span class=\"muted\">(" +
            escape_markup(f.rule) + ")</span></h3>\n<p>" + escape_markup(f.evidence) + "</p>\n" +
            remedies_table(f);
  }
  if (!d.notes.empty()) html += "<p class=\"note\">Could not judge:</p>\n<ul class=\"warnings\">\n";
  for (const std::string& n : d.notes) html += "<li>" + escape_markup(n) + "</li>\n";
  if (!d.notes.empty()) html += "</ul>\n";
  return html;
}

}  // namespace infergate

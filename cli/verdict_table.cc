#include "cli/verdict_table.h"

#include <cstdio>
#include <string>

#include "common/report/metric_format.h"

namespace infergate {

namespace {

std::string cell(const std::string& text, int width) {
  std::string s = text.size() > size_t(width) ? text.substr(0, size_t(width)) : text;
  return s + std::string(size_t(width) - s.size() + 1, ' ');
}

// Deterministic runs: every metric that moved, however little, with its size.
void print_changes(std::ostream& out, const Comparison& c) {
  if (c.changes.empty()) {
    out << "deterministic: every summary metric is identical\n";
    return;
  }
  out << "deterministic: " << c.changes.size() << " summary metric(s) changed\n";
  for (const MetricChange& m : c.changes) {
    out << "  " << (m.point.empty() ? "" : m.point + " ") << m.metric << ": " << m.baseline
        << " -> " << m.candidate << " (" << format_change(m.relative_change) << ")\n";
  }
}

}  // namespace

void print_verdict_table(std::ostream& out, const Comparison& c) {
  if (!c.comparable) {
    out << "refusing to compare: the fingerprints differ\n";
    for (const FieldDifference& d : c.differences) {
      out << "  " << d.field << ": " << d.baseline << " -> " << d.candidate << "\n";
    }
  } else {
    out << cell("rule", 20) << cell("point", 14) << cell("baseline", 12) << cell("candidate", 12)
        << cell("change", 9) << cell("interval", 20) << cell("p", 8) << "verdict\n";
    for (const RuleEvaluation& e : c.evaluations) {
      out << cell(e.rule.name, 20) << cell(e.point.empty() ? "-" : e.point, 14)
          << cell(format_metric_value(e.baseline, e.rule.metric), 12)
          << cell(format_metric_value(e.candidate, e.rule.metric), 12)
          << cell(format_change(e.relative_change), 9)
          << cell(format_interval(e.interval_lo, e.interval_hi), 20)
          << cell(format_p_value(e.p_value), 8) << to_string(e.verdict)
          << (e.blocks() ? " (blocking)" : "") << "\n";
      if (e.verdict != Verdict::kPass) out << "    " << e.reason << "\n";
      for (const std::string& w : e.warnings) out << "    warning: " << w << "\n";
    }
  }
  if (c.deterministic) print_changes(out, c);
  for (const std::string& w : c.warnings) out << "warning: " << w << "\n";
  if (c.comparable) {  // compared anyway: say what differed
    for (const FieldDifference& d : c.differences) {
      out << "  " << d.field << ": " << d.baseline << " -> " << d.candidate << "\n";
    }
  }
  out << c.headline() << "\n";
}

}  // namespace infergate

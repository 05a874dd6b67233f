#include "gates/report/markdown_report.h"

#include <algorithm>
#include <cctype>

#include "common/report/markup_escape.h"
#include "common/report/metric_format.h"
#include "gates/report/reproduce_command.h"

namespace infergate {

namespace {

// Text safe inside a table cell: markup characters as entities so GitHub renders them
// literally, pipes and Markdown's own marks backslash-escaped, line breaks flattened.
std::string cell(std::string_view text) {
  std::string out;
  for (const char c : escape_markup(text)) {
    if (c == '\n' || c == '\r') {
      out += ' ';
    } else if (c == '|' || c == '`' || c == '*' || c == '[' || c == ']' || c == '\\') {
      out += '\\';
      out += c;
    } else {
      out += c;
    }
  }
  return out;
}

std::string upper(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return text;
}

std::string rule_label(const RuleEvaluation& e) {
  return e.point.empty() ? e.rule.name : e.rule.name + " @ " + e.point;
}

// The verdict word, bold when it fails the gate, with why it does not when a regression passes.
std::string verdict_cell(const RuleEvaluation& e) {
  const std::string word = upper(to_string(e.verdict));
  if (e.blocks() || e.blocks_as_inconclusive()) return "**" + word + "**";
  if (e.verdict == Verdict::kRegressed) {
    return word +
           (e.justified ? " (justified)" : " (" + std::string(to_string(e.rule.severity)) + ")");
  }
  return word;
}

// A fence longer than any run of backticks in `text`, so the code block cannot be closed early.
std::string fence_for(const std::string& text) {
  size_t longest = 0, run = 0;
  for (const char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max<size_t>(3, longest + 1), '`');
}

void rules_table(const Comparison& c, std::string& md) {
  md += "| rule | metric | baseline | candidate | change | interval | p | verdict |\n";
  md += "|---|---|--:|--:|--:|:-:|--:|---|\n";
  for (const RuleEvaluation& e : c.evaluations) {
    md += "| " + cell(rule_label(e)) + " | " + cell(e.rule.metric.text) + " | " +
          cell(format_metric_value(e.baseline, e.rule.metric)) + " | " +
          cell(format_metric_value(e.candidate, e.rule.metric)) + " | " +
          format_change(e.relative_change) + " | " + format_interval(e.interval_lo, e.interval_hi) +
          " | " + cell(format_p_value(e.p_value)) + " | " + verdict_cell(e) + " |\n";
  }
  md += "\n" + c.statistics_note() + "\n";
}

void reasons(const Comparison& c, std::string& md) {
  std::string lines;
  for (const RuleEvaluation& e : c.evaluations) {
    if (e.verdict == Verdict::kPass && e.warnings.empty()) continue;
    lines += "- **" + cell(rule_label(e)) + "**: " + cell(e.reason) + "\n";
    for (const std::string& w : e.warnings) lines += "  - warning: " + cell(w) + "\n";
  }
  if (!lines.empty()) md += "\n### Why\n\n" + lines;
}

void differences(const Comparison& c, std::string& md) {
  if (c.differences.empty()) return;
  md += c.comparable ? "\n### Environment differences (compared anyway)\n\n"
                     : "\n### Environment differences (not compared)\n\n";
  md += "| field | baseline | candidate |\n|---|---|---|\n";
  for (const FieldDifference& d : c.differences) {
    md += "| " + cell(d.field) + " | " + cell(d.baseline) + " | " + cell(d.candidate) + " |\n";
  }
}

// Deterministic runs: every metric that moved, however little.
void changes_list(const Comparison& c, std::string& md) {
  md += "\n" + std::to_string(c.changes.size()) + " summary metric(s) changed (deterministic runs)";
  md += c.changes.empty() ? ".\n" : ":\n\n";
  for (const MetricChange& m : c.changes) {
    md += "- " + cell((m.point.empty() ? "" : m.point + " ") + m.metric) + ": " +
          format_change(m.relative_change) + "\n";
  }
}

}  // namespace

std::string markdown_report(const Comparison& c) {
  std::string md = "## infergate compare: " + cell(c.headline()) + "\n\n";
  md += "Workload **" + cell(c.workload_name) + "**: baseline " + cell(c.baseline_path) +
        ", candidate " + cell(c.candidate_path) +
        (c.rules_path.empty() ? std::string(", default rules") : ", rules " + cell(c.rules_path)) +
        ".";
  md += " Judged as " + c.method() + ".";
  if (c.extra_repetitions > 0) {
    md += " " + std::to_string(c.extra_repetitions) + " repetitions added by --auto-repeat.";
  }
  md += "\n\n";
  if (c.comparable && !c.evaluations.empty()) {
    rules_table(c, md);
    reasons(c, md);
    if (c.deterministic) changes_list(c, md);
  } else if (c.comparable) {
    md += "No rule applies to this workload.\n";
  }
  differences(c, md);
  if (!c.warnings.empty()) {
    md += "\n### Warnings\n\n";
    for (const std::string& w : c.warnings) md += "- " + cell(w) + "\n";
  }
  const std::string command = reproduce_command(c);
  const std::string fence = fence_for(command);
  md += "\n### Reproduce\n\n" + fence + "sh\n" + command + "\n" + fence + "\n";
  return md;
}

}  // namespace infergate

#include "gates/report/html_report.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "common/io/json_path.h"
#include "common/report/html_page.h"
#include "common/report/markup_escape.h"
#include "common/report/metric_format.h"
#include "gates/report/capacity_figures.h"
#include "gates/report/communication_section.h"
#include "gates/report/replica_section.h"
#include "gates/report/report_figures.h"
#include "gates/report/report_series.h"
#include "gates/report/reproduce_command.h"
#include "gates/report/server_side_section.h"

namespace infergate {

namespace {

std::string header_row(const std::vector<const char*>& names) {
  std::string row = "<tr>";
  for (const char* n : names) row += std::string("<th>") + n + "</th>";
  return row + "</tr>\n";
}

std::string json_text(const nlohmann::json& v) {
  return v.is_string() ? v.get<std::string>() : v.dump();
}

std::string runs_table(const std::vector<ReportSide>& sides) {
  std::string html = "<table>\n" + header_row({"side", "results file", "workload", "created",
                                               "git commit", "points", "repetitions", "command"});
  for (const ReportSide& s : sides) {
    const ResultsFile& r = *s.results;
    const nlohmann::json& dirty = json_at_path(r.doc, "manifest.git.dirty");
    const std::string commit = json_text(json_at_path(r.doc, "manifest.git.commit")).substr(0, 12) +
                               (dirty == true ? " (dirty)" : "");
    html += "<tr>" + table_cell(s.name) + table_cell(r.source) + table_cell(r.workload_name) +
            table_cell(r.created_at) + table_cell(commit) +
            table_cell(std::to_string(r.points.size()), "num") +
            table_cell(std::to_string(r.num_repetitions()) + (r.incomplete ? " (incomplete)" : ""),
                       "num") +
            table_cell(r.command) + "</tr>\n";
  }
  return html + "</table>\n";
}

const char* verdict_class(Verdict v) {
  switch (v) {
    case Verdict::kRegressed:
      return "v-regressed";
    case Verdict::kImproved:
      return "v-improved";
    case Verdict::kInconclusive:
      return "v-inconclusive";
    case Verdict::kPass:
      break;
  }
  return "v-pass";
}

std::string verdict_text(const RuleEvaluation& e) {
  std::string text = to_string(e.verdict);
  if (e.blocks()) return text + " (fails the gate)";
  if (e.blocks_as_inconclusive()) return text + " (blocks)";
  if (e.verdict == Verdict::kRegressed) {
    return text +
           (e.justified ? " (justified)" : std::string(" (") + to_string(e.rule.severity) + ")");
  }
  return text;
}

std::string rules_table(const Comparison& c) {
  if (!c.comparable) {
    return "<p class=\"note\">Not compared: " + std::to_string(c.differences.size()) +
           " fingerprint field(s) differ (see <a href=\"#environment\">Environment</a>).</p>\n";
  }
  if (c.evaluations.empty()) return "<p class=\"note\">No rule applies to this workload.</p>\n";
  std::string html =
      "<table>\n" + header_row({"rule", "point", "metric", "severity", "baseline", "candidate",
                                "change", "interval", "threshold", "p", "verdict", "reason"});
  for (const RuleEvaluation& e : c.evaluations) {
    html += std::string("<tr class=\"") + verdict_class(e.verdict) + "\">" +
            table_cell(e.rule.name) + table_cell(e.point) + table_cell(e.rule.metric.text) +
            table_cell(to_string(e.rule.severity)) +
            table_cell(format_metric_value(e.baseline, e.rule.metric), "num") +
            table_cell(format_metric_value(e.candidate, e.rule.metric), "num") +
            table_cell(format_change(e.relative_change), "num") +
            table_cell(format_interval(e.interval_lo, e.interval_hi), "num") +
            table_cell(format_change(e.effective_threshold), "num") +
            table_cell(format_p_value(e.p_value), "num") + table_cell(verdict_text(e), "verdict") +
            "<td>" + escape_markup(e.reason);
    for (const std::string& w : e.warnings) {
      html += "<br><span class=\"muted\">warning: " + escape_markup(w) + "</span>";
    }
    html += "</td></tr>\n";
  }
  html += "</table>\n<p class=\"muted\">" + escape_markup(c.statistics_note()) + "</p>\n";
  return html;
}

std::string warnings_list(const std::vector<std::string>& warnings) {
  std::string html = "<ul class=\"warnings\">\n";
  for (const std::string& w : warnings) html += "<li>" + escape_markup(w) + "</li>\n";
  return html + "</ul>\n";
}

std::string dot_plots(const Comparison& c) {
  if (c.evaluations.empty()) return "<p class=\"note\">No rule was evaluated.</p>\n";
  std::string html = "<div class=\"figures\">\n";
  for (const RuleEvaluation& e : c.evaluations) html += repetition_dot_plot(e);
  return html + "</div>\n";
}

std::string environment_table(const Comparison& c, const ResultsFile& baseline,
                              const ResultsFile& candidate) {
  std::set<std::string> differing;
  for (const FieldDifference& d : c.differences) differing.insert(d.field);
  std::string html = "<table>\n" + header_row({"field", "baseline", "candidate", ""});
  std::set<std::string> shown;
  for (const std::string& field : fingerprint_fields()) {
    const bool differs = differing.count(field) > 0;
    html += std::string("<tr") + (differs ? " class=\"diff\"" : "") + ">" + table_cell(field) +
            table_cell(json_text(json_at_path(baseline.doc, field))) +
            table_cell(json_text(json_at_path(candidate.doc, field))) +
            table_cell(differs ? "differs" : "same") + "</tr>\n";
    shown.insert(field);
  }
  for (const FieldDifference& d : c.differences) {
    if (shown.count(d.field)) continue;
    html += "<tr class=\"diff\">" + table_cell(d.field) + table_cell(d.baseline) +
            table_cell(d.candidate) + table_cell("differs") + "</tr>\n";
  }
  for (const char* field : {"manifest.git.commit", "manifest.git.dirty", "manifest.host.hostname",
                            "manifest.build.infergate_version", "manifest.seed", "created_at"}) {
    html += "<tr>" + table_cell(field) + table_cell(json_text(json_at_path(baseline.doc, field))) +
            table_cell(json_text(json_at_path(candidate.doc, field))) +
            table_cell("not compared", "muted") + "</tr>\n";
  }
  return html + "</table>\n";
}

std::string manifest_rows(const nlohmann::json& v, const std::string& path) {
  if (v.is_object() && !v.empty()) {
    std::string rows;
    for (const auto& [key, child] : v.items()) {
      rows += manifest_rows(child, path.empty() ? key : path + "." + key);
    }
    return rows;
  }
  return "<tr>" + table_cell(path) + table_cell(json_text(v)) + "</tr>\n";
}

std::string summary_table(const ResultsFile& r) {
  const std::pair<const char*, const char*> columns[] = {
      {"summary.request_throughput_rps", "QPS"},
      {"summary.ttft_ms.p50", "TTFT p50"},
      {"summary.ttft_ms.p95", "TTFT p95"},
      {"summary.tpot_ms.p50", "TPOT p50"},
      {"summary.tpot_ms.p95", "TPOT p95"},
      {"summary.output_throughput_tps", "output tokens/s"},
      {"summary.peak_memory_bytes", "peak memory"},
      {"summary.utilization_pct", "utilization"},
  };
  std::string html = "<table>\n<tr><th>point</th><th>repetitions</th>";
  for (const auto& [key, name] : columns) html += std::string("<th>") + name + "</th>";
  html += "<th>harness-limited</th></tr>\n";
  for (const PointResult& p : r.points) {
    html += "<tr>" +
            table_cell(sweep_point_label(p).empty() ? "(no sweep)" : sweep_point_label(p)) +
            table_cell(std::to_string(p.repetitions.size()), "num");
    for (const auto& [key, name] : columns) {
      const MetricKey k = parse_metric_key(key);
      const std::optional<double> v = metric_value(p.summary, k);
      html += table_cell(v ? format_metric_value(*v, k) : "n/a", "num");
    }
    const nlohmann::json limited = p.summary.value("harness_limited", nlohmann::json());
    html += table_cell(limited.is_null() ? "n/a" : limited.dump()) + "</tr>\n";
  }
  return html + "</table>\n<p class=\"muted\">Means over repetitions (docs/metrics.md).</p>\n";
}

void add_chart_sections(const std::vector<ReportSide>& sides, std::vector<HtmlSection>& s) {
  s.push_back({"latency", "Latency distributions", latency_cdf_figures(sides)});
  s.push_back({"throughput-latency", "Throughput vs latency", throughput_latency_figures(sides)});
  s.push_back({"capacity-search", "Capacity search", search_path_figures(sides)});
  s.push_back({"frontier", "Throughput frontier", frontier_figures(sides)});
  s.push_back({"resources", "Memory and utilization", timeline_figures(sides)});
  s.push_back({"engine-steps", "Engine step breakdown", step_breakdown_figure(sides)});
  s.push_back(
      {"communication", "Communication (multi-rank engines)", communication_section(sides)});
  s.push_back({"replicas", "Replicas (router targets)", replica_section(sides)});
  s.push_back({"server", "Client and server (HTTP targets)", server_side_section(sides)});
}

std::string lowercase_label(const Comparison& c) {
  std::string label = c.overall_label();
  std::transform(label.begin(), label.end(), label.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return label;
}

}  // namespace

std::string html_report(const Comparison& c, const ResultsFile& baseline,
                        const ResultsFile& candidate) {
  const std::vector<ReportSide> sides = {{"baseline", kBaselineColor, &baseline},
                                         {"candidate", kCandidateColor, &candidate}};
  const std::string header = "<div class=\"banner " + lowercase_label(c) + "\">" +
                             escape_markup(c.headline()) + "</div>\n";
  std::vector<HtmlSection> sections;
  sections.push_back({"runs", "Runs", runs_table(sides)});
  sections.push_back(
      {"rules", "Rules", "<p>Judged as " + escape_markup(c.method()) + ".</p>\n" + rules_table(c)});
  if (!c.warnings.empty()) sections.push_back({"warnings", "Warnings", warnings_list(c.warnings)});
  sections.push_back({"repetitions", "Repetitions", dot_plots(c)});
  add_chart_sections(sides, sections);
  sections.push_back({"environment", "Environment", environment_table(c, baseline, candidate)});
  sections.push_back(
      {"reproduce", "Reproduce", "<pre>" + escape_markup(reproduce_command(c)) + "</pre>\n"});
  return html_document("infergate compare: " + c.workload_name, header, sections);
}

std::string html_run_report(const ResultsFile& r, const std::vector<HtmlSection>& leading) {
  const std::vector<ReportSide> sides = {{"run", kBaselineColor, &r}};
  const std::string banner = r.workload_name + ": " + std::to_string(r.points.size()) +
                             " point(s), " + std::to_string(r.num_repetitions()) +
                             " repetition(s)" + (r.incomplete ? ", INCOMPLETE" : "");
  const std::string header = std::string("<div class=\"banner ") +
                             (r.incomplete ? "inconclusive" : "run") + "\">RUN " +
                             escape_markup(banner) + "</div>\n";
  std::vector<HtmlSection> sections = leading;
  sections.push_back({"summary", "Summary", summary_table(r)});
  sections.push_back({"runs", "Run", runs_table(sides)});
  add_chart_sections(sides, sections);
  sections.push_back({"environment", "Manifest",
                      "<table>\n" + header_row({"field", "value"}) +
                          manifest_rows(r.manifest, "manifest") + "</table>\n"});
  sections.push_back({"reproduce", "Reproduce",
                      "<pre>" +
                          escape_markup(r.command.empty() ? "(no command recorded)" : r.command) +
                          "</pre>\n"});
  return html_document("infergate run: " + r.workload_name, header, sections);
}

}  // namespace infergate

#include "gates/bisect/bisect_report.h"

#include <algorithm>
#include <cmath>

#include "common/report/markup_escape.h"
#include "common/report/metric_format.h"

namespace infergate {

namespace {

std::string short_hash(const std::string& commit) { return commit.substr(0, 10); }

const TestedCommit* find_commit(const BisectReport& r, const std::string& commit) {
  for (const TestedCommit& t : r.commits) {
    if (t.commit == commit) return &t;
  }
  return nullptr;
}

std::string value_text(const TestedCommit& t, const MetricKey& key) {
  return std::isfinite(t.value) ? format_metric_value(t.value, key) : "-";
}

std::string change_text(const TestedCommit& t) {
  if (t.role == kRoleGoodEnd) return "baseline";
  return std::isfinite(t.relative_change) ? format_change(t.relative_change) : "-";
}

std::string interval_text(const TestedCommit& t) {
  return std::isfinite(t.interval_lo) ? format_interval(t.interval_lo, t.interval_hi) : "";
}

std::string p_text(const TestedCommit& t) {
  return std::isfinite(t.p_value) && t.role != kRoleGoodEnd ? format_p_value(t.p_value) : "";
}

// "good end", "bad end", "first bad", "bad end, first bad" or "".
std::string mark(const BisectReport& r, const TestedCommit& t) {
  std::string m = t.role == kRoleStep ? "" : t.role;
  if (!r.first_bad.empty() && t.commit == r.first_bad) m += m.empty() ? "first bad" : ", first bad";
  return m;
}

std::vector<std::string> header(const BisectReport& r) {
  return {"commit", "answer", r.settings.metric, "vs good", "interval", "p", "reps", "subject"};
}

std::vector<std::string> cells(const BisectReport& r, const TestedCommit& t, const MetricKey& key) {
  std::string subject = t.subject;
  const std::string m = mark(r, t);
  if (!m.empty()) subject += "  (" + m + ")";
  return {short_hash(t.commit),
          to_string(t.answer),
          value_text(t, key),
          change_text(t),
          interval_text(t),
          p_text(t),
          std::to_string(t.values.size()),
          subject};
}

std::string aligned(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width(rows.empty() ? 0 : rows[0].size(), 0);
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  std::string text;
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(width[i] - row[i].size() + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    text += line + "\n";
  }
  return text;
}

std::string md_cell(const std::string& text) {
  std::string out;
  for (const char c : escape_markup(text)) {
    if (c == '|' || c == '\\' || c == '`' || c == '*' || c == '_') out += '\\';
    out += c;
  }
  return out;
}

// `text` as a Markdown code span (nothing is escaped inside one; a backtick needs a longer fence).
std::string md_code(const std::string& text) {
  if (text.find('`') == std::string::npos) return "`" + text + "`";
  return "`` " + text + " ``";
}

std::string judging_text(const BisectSettings& s) {
  if (s.paired) {
    return "paired with the end's build in ABBA order (from " +
           std::to_string(s.measure.repetitions) + " pairs, up to " +
           std::to_string(s.design.max_pairs) + " or " +
           format_number(s.design.budget_seconds / 60, 3) + " minutes a comparison)";
  }
  return std::to_string(s.measure.repetitions) + " repetitions a round, up to " +
         std::to_string(s.max_repeat_rounds) + " more rounds while inconclusive";
}

nlohmann::json settings_json(const BisectSettings& s) {
  return {{"good", s.good},
          {"bad", s.bad},
          {"metric", s.metric},
          {"better", to_string(s.better)},
          {"threshold", s.threshold},
          {"repeat", s.measure.repetitions},
          {"max_repeat_rounds", s.max_repeat_rounds},
          {"workload", s.measure.workload_path},
          {"sets", s.measure.sets},
          {"build_command", s.build.command},
          {"binary", s.build.binary},
          {"cache_dir", s.cache_dir},
          {"reuse_measurements", s.measure.reuse},
          {"paired", s.paired},
          {"max_pairs", s.design.max_pairs},
          {"budget_seconds", s.design.budget_seconds}};
}

}  // namespace

const char* to_string(BisectStatus s) {
  switch (s) {
    case BisectStatus::kFound:
      return "found";
    case BisectStatus::kEndsDoNotDiffer:
      return "ends-do-not-differ";
    case BisectStatus::kOnlySkippedLeft:
      return "only-skipped-left";
  }
  return "?";
}

int bisect_exit_code(BisectStatus s) {
  switch (s) {
    case BisectStatus::kFound:
      return 0;
    case BisectStatus::kOnlySkippedLeft:
      return 1;
    case BisectStatus::kEndsDoNotDiffer:
      return 3;
  }
  return 2;
}

std::string tested_commit_line(const TestedCommit& t, const MetricKey& key) {
  std::string line = short_hash(t.commit) + " " + to_string(t.answer) + ": ";
  if (std::isfinite(t.value)) {
    line += value_text(t, key);
    if (t.role != kRoleGoodEnd && std::isfinite(t.relative_change)) {
      line += ", " + format_change(t.relative_change) + " " + interval_text(t) + " vs good, p " +
              format_p_value(t.p_value);
    }
    line += " (" + std::to_string(t.values.size()) + " repetitions)";
    if (t.answer == StepAnswer::kSkip) line += ", " + t.verdict + ": " + t.reason;
  } else {
    line += t.verdict + ": " + t.reason;
  }
  return line + ": " + t.subject;
}

nlohmann::json bisect_report_json(const BisectReport& r) {
  nlohmann::json commits = nlohmann::json::array();
  for (const TestedCommit& t : r.commits) {
    nlohmann::json c = to_json(t);
    c["first_bad"] = !r.first_bad.empty() && t.commit == r.first_bad;
    commits.push_back(std::move(c));
  }
  nlohmann::json first_bad = nullptr;
  if (const TestedCommit* t = find_commit(r, r.first_bad)) {
    first_bad = {{"commit", t->commit}, {"subject", t->subject}};
  } else if (!r.first_bad.empty()) {
    first_bad = {{"commit", r.first_bad}, {"subject", nullptr}};
  }
  return {{"schema", kBisectSchema},
          {"status", to_string(r.status)},
          {"message", r.message},
          {"first_bad", first_bad},
          {"candidates", r.candidates},
          {"unit", metric_unit(parse_metric_key(r.settings.metric).metric)},
          {"settings", settings_json(r.settings)},
          {"commits", commits},
          {"git_bisect_log", r.git_bisect_log},
          {"command", r.command},
          {"created_at", r.created_at}};
}

std::string bisect_report_text(const BisectReport& r) {
  const MetricKey key = parse_metric_key(r.settings.metric);
  std::vector<std::vector<std::string>> rows = {header(r)};
  for (const TestedCommit& t : r.commits) rows.push_back(cells(r, t, key));
  return r.message + "\n\n" + aligned(rows);
}

std::string bisect_report_markdown(const BisectReport& r) {
  const MetricKey key = parse_metric_key(r.settings.metric);
  const BisectSettings& s = r.settings;
  std::string md = "# infergate bisect: ";
  if (r.status == BisectStatus::kFound) {
    md += "first bad commit `" + short_hash(r.first_bad) + "`\n\n";
  } else {
    md += std::string(r.status == BisectStatus::kEndsDoNotDiffer ? "the ends do not differ"
                                                                 : "only skipped commits left") +
          "\n\n";
  }
  md += md_cell(r.message) + "\n\n";
  md += "| commit | answer | " + md_cell(s.metric) +
        " | vs good | interval | p | reps | subject |\n|---|---|---:|---:|---|---:|---:|---|\n";
  for (const TestedCommit& t : r.commits) {
    const std::vector<std::string> c = cells(r, t, key);
    const bool first = !r.first_bad.empty() && t.commit == r.first_bad;
    const std::string b = first ? "**" : "";
    md += "| " + b + "`" + c[0] + "`" + b + " | " + b + c[1] + b;
    for (size_t i = 2; i < c.size(); ++i) md += " | " + md_cell(c[i]);
    md += " |\n";
  }
  md += "\nJudged on " + md_code(s.metric) + " (" + to_string(s.better) +
        " is better) against the good end, threshold " + format_number(s.threshold * 100, 3) +
        "%, " + judging_text(s) + "; workload " + md_code(s.measure.workload_path);
  for (const std::string& set : s.measure.sets) md += ", " + md_code("--set " + set);
  md += ".\n";
  for (const TestedCommit& t : r.commits) {
    if (t.answer == StepAnswer::kSkip) {
      md += "\n- `" + short_hash(t.commit) + "` skipped: " + md_cell(t.reason);
    }
  }
  if (!r.git_bisect_log.empty()) {
    md += "\n\n<details><summary>git bisect log</summary>\n\n```\n" + r.git_bisect_log +
          "\n```\n\n</details>\n";
  }
  if (!r.command.empty()) md += "\nReproduce: " + md_code(r.command) + "\n";
  return md;
}

}  // namespace infergate

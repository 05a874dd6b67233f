#include "gates/report/communication_section.h"

#include <map>
#include <optional>

#include "common/report/markup_escape.h"
#include "common/report/metric_format.h"

namespace infergate {

namespace {

// Per collective of one scope (the group's, or the world's): sums over repetitions.
struct CommTotals {
  double calls = 0, bytes = 0, seconds = 0;
};
struct PointComm {
  double steps = 0;
  std::map<std::string, CommTotals> ops;  // "group: all_reduce", "world: send", ...
  std::string layout, bubble, experts;
};

void add_scope(const CommScopeRecord& scope, const std::string& name, PointComm& c) {
  for (const auto& [op, v] : scope) {
    CommTotals& t = c.ops[name + ": " + op];
    t.calls += double(v.calls);
    t.bytes += double(v.bytes);
    t.seconds += v.seconds;
  }
}

std::optional<PointComm> point_comm(const PointResult& p) {
  PointComm c;
  for (const RepetitionResult& rep : p.repetitions) {
    if (!rep.engine || !rep.engine->engine || !rep.engine->engine->parallel) continue;
    const ParallelRecord& par = *rep.engine->engine->parallel;
    c.steps += double(par.steps);
    if (par.ranks) {
      add_scope(par.ranks->group, "TP/EP group", c);
      add_scope(par.ranks->world, "plan & pipeline", c);
    }
    c.layout = "TP " + std::to_string(par.tensor_parallel) + " x PP " +
               std::to_string(par.pipeline_parallel) + " x EP " +
               std::to_string(par.expert_parallel);
    if (par.pipeline) c.bubble = format_number(par.pipeline->bubble_fraction, 3);
    if (par.experts) {
      c.experts = nlohmann::json(par.experts->tokens_per_rank).dump() + " (max/mean " +
                  format_number(par.experts->max_over_mean, 3) + ")";
    }
  }
  if (c.layout.empty()) return std::nullopt;
  return c;
}

std::string point_table(const std::string& label, const PointComm& c) {
  std::string html = "<h3>" + escape_markup(label + ": " + c.layout) + "</h3>\n<table>\n" +
                     "<tr><th>collective</th><th>calls per step</th><th>bytes per step</th>"
                     "<th>ms per step</th><th>seconds in all</th></tr>\n";
  const double steps = c.steps > 0 ? c.steps : 1;
  for (const auto& [op, t] : c.ops) {
    html += "<tr>" + table_cell(op) + table_cell(format_number(t.calls / steps), "num") +
            table_cell(format_number(t.bytes / steps), "num") +
            table_cell(format_number(1e3 * t.seconds / steps), "num") +
            table_cell(format_number(t.seconds), "num") + "</tr>\n";
  }
  html += "</table>\n";
  if (!c.bubble.empty()) {
    html += "<p>Pipeline bubble (mean over stages): " + escape_markup(c.bubble) + "</p>\n";
  }
  if (!c.experts.empty()) {
    html += "<p>Expert rows computed per rank: " + escape_markup(c.experts) + "</p>\n";
  }
  return html;
}

}  // namespace

std::string communication_section(const std::vector<ReportSide>& sides) {
  std::string html;
  for (const ReportSide& side : sides) {
    for (const PointResult& p : side.results->points) {
      const std::optional<PointComm> c = point_comm(p);
      if (!c) continue;
      const std::string point = sweep_point_label(p);
      html += point_table(point.empty() ? side.name : side.name + " @ " + point, *c);
    }
  }
  if (html.empty()) {
    return "<p class=\"note\">Single-rank engines: no communication recorded "
           "(repetitions[].engine.parallel comes from engines run under mpirun).</p>\n";
  }
  return html +
         "<p class=\"muted\">Rank 0's collectives, summed over repetitions and divided by "
         "engine steps (docs/parallelism.md).</p>\n";
}

}  // namespace infergate

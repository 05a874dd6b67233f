#include "gates/verdict/paced_rules.h"

#include <cstdio>
#include <optional>

#include "common/results/metric_registry.h"
#include "gates/verdict/comparison.h"

namespace infergate {

namespace {

// A completion rate at or above this share of the arrival rate means the target kept up.
constexpr double kKeptUpShare = 0.8;

bool paced(const GateRule& rule) {
  const std::optional<MetricInfo> info = find_metric(rule.metric.metric);
  return info && info->paced_by_arrivals;
}

bool open_loop_without_cap(const nlohmann::json& workload) {
  const nlohmann::json load = workload.value("load", nlohmann::json::object());
  return load.value("mode", std::string()) == "open" && load.value("max_concurrency", 0) <= 0;
}

// The arrival rate of a point: its sweep value when the sweep is over load.rate.
std::optional<double> arrival_rate(const nlohmann::json& workload, const PointResult& point) {
  if (point.sweep.is_object() && point.sweep.value("field", std::string()) == "load.rate") {
    const nlohmann::json v = point.sweep.value("value", nlohmann::json());
    if (v.is_number()) return v.get<double>();
  }
  const nlohmann::json rate =
      workload.value("load", nlohmann::json::object()).value("rate", nlohmann::json());
  return rate.is_number() ? std::optional<double>(rate.get<double>()) : std::nullopt;
}

std::string why(const GateRule& rule) {
  return "rule '" + rule.name + "' (" + rule.metric.text +
         ") cannot move in an open loop the target keeps up with: it is the arrival rate "
         "whatever the code does, so it cannot detect a slowdown";
}

}  // namespace

std::vector<std::string> paced_rule_notes(const RuleSet& rules, const nlohmann::json& workload) {
  std::vector<std::string> notes;
  if (!open_loop_without_cap(workload)) return notes;
  const std::string name = workload.value("name", std::string());
  for (const GateRule& rule : rules.rules) {
    if (!rule.applies_to(name) || !paced(rule)) continue;
    notes.push_back(why(rule) +
                    " (unless the target saturates); gate throughput with a closed-loop workload "
                    "(load.mode \"closed\") or an open loop above capacity");
  }
  return notes;
}

void warn_paced_rules(Comparison& c, const ResultsFile& candidate) {
  if (!open_loop_without_cap(candidate.workload)) return;
  for (RuleEvaluation& e : c.evaluations) {
    if (!paced(e.rule)) continue;
    for (const PointResult& p : candidate.points) {
      if (sweep_point_label(p) != e.point) continue;
      const std::optional<double> rate = arrival_rate(candidate.workload, p);
      const nlohmann::json done = p.summary.value("request_throughput_rps", nlohmann::json());
      if (!rate || *rate <= 0 || !done.is_number() || done.get<double>() < kKeptUpShare * *rate)
        continue;
      char figures[96];
      std::snprintf(figures, sizeof(figures), " (%.3g req/s completed at %.3g req/s arriving)",
                    done.get<double>(), *rate);
      e.warnings.push_back(why(e.rule) + figures);
    }
  }
}

}  // namespace infergate

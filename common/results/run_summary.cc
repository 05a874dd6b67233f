#include "common/results/run_summary.h"

#include "common/results/metric_registry.h"

namespace infergate {

namespace {

nlohmann::json value_json(const int64_t& v) { return v; }
nlohmann::json value_json(const double& v) { return v; }
nlohmann::json value_json(const bool& v) { return v; }
nlohmann::json value_json(const StatSummary& v) { return stat_to_json(v); }
nlohmann::json value_json(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

}  // namespace

nlohmann::json stat_to_json(const StatSummary& s) {
  return {{"count", s.count}, {"mean", s.mean}, {"min", s.min}, {"p50", s.p50},
          {"p90", s.p90},     {"p95", s.p95},   {"p99", s.p99}, {"max", s.max}};
}

nlohmann::json summary_to_json(const RunSummary& s) {
  nlohmann::json out = nlohmann::json::object();
  for (const MetricInfo& m : run_summary_metrics()) {
    out[std::string(m.name)] =
        std::visit([&](auto member) { return value_json(s.*member); }, m.member);
  }
  return out;
}

nlohmann::json error_classes_to_json(const std::vector<ErrorClass>& classes) {
  nlohmann::json out = nlohmann::json::array();
  for (const ErrorClass& c : classes) {
    out.push_back({{"class", c.name}, {"count", c.count}, {"first_message", c.first_message}});
  }
  return out;
}

std::vector<ErrorClass> error_classes_from_json(const nlohmann::json& errors) {
  std::vector<ErrorClass> out;
  for (const nlohmann::json& e : errors) {
    out.push_back({e.at("class").get<std::string>(), e.at("count").get<int64_t>(),
                   e.at("first_message").get<std::string>()});
  }
  return out;
}

}  // namespace infergate

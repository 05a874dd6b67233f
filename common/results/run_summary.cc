#include "common/results/run_summary.h"

#include "common/results/metric_registry.h"
#include "common/results/section_reader.h"

namespace infergate {

namespace {

nlohmann::json value_json(const int64_t& v) { return v; }
nlohmann::json value_json(const double& v) { return v; }
nlohmann::json value_json(const bool& v) { return v; }
nlohmann::json value_json(const StatSummary& v) { return stat_to_json(v); }
nlohmann::json value_json(const std::optional<StatSummary>& v) {
  return v ? stat_to_json(*v) : nlohmann::json(nullptr);
}
nlohmann::json value_json(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

void read_value(const SectionReader& r, const char* name, int64_t& v) { v = r.integer(name); }
void read_value(const SectionReader& r, const char* name, double& v) { v = r.number(name); }
void read_value(const SectionReader& r, const char* name, bool& v) { v = r.flag(name); }
void read_value(const SectionReader& r, const char* name, StatSummary& v) {
  v = read_stat_summary(r.object(name));
}
void read_value(const SectionReader& r, const char* name, std::optional<StatSummary>& v) {
  v.reset();
  if (r.has(name) && !r.json().at(name).is_null()) v = read_stat_summary(r.object(name));
}
void read_value(const SectionReader& r, const char* name, std::optional<double>& v) {
  v = r.optional_number(name);
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

StatSummary read_stat_summary(const SectionReader& r) {
  StatSummary s;
  s.count = r.integer("count");
  s.mean = r.number("mean");
  s.min = r.number("min");
  s.p50 = r.number("p50");
  s.p90 = r.number("p90");
  s.p95 = r.number("p95");
  s.p99 = r.number("p99");
  s.max = r.number("max");
  return s;
}

RunSummary read_run_summary(const SectionReader& r) {
  r.expect_object();
  RunSummary s;
  for (const MetricInfo& m : run_summary_metrics()) {
    const std::string name(m.name);
    std::visit([&](auto member) { read_value(r, name.c_str(), s.*member); }, m.member);
  }
  return s;
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

#include "common/results/energy_record.h"

namespace infergate {

namespace {

nlohmann::json figure(const std::optional<double>& joules) {
  return joules ? nlohmann::json(*joules) : nlohmann::json();
}

// One source's figure and reason, exactly one of them set.
void read_source(const SectionReader& r, const char* figure_key, const char* reason_key,
                 std::optional<double>& joules, std::string& reason) {
  joules = r.optional_number(figure_key);
  reason = r.text_or(reason_key, "");
  if (joules.has_value() == !reason.empty()) {
    r.fail(std::string("needs exactly one of ") + figure_key + " and " + reason_key);
  }
  if (joules && *joules < 0) r.fail(std::string(figure_key) + " is negative");
}

}  // namespace

std::optional<double> EnergyRecord::joules() const {
  if (!cpu_joules && !gpu_joules) return std::nullopt;
  return cpu_joules.value_or(0) + gpu_joules.value_or(0);
}

nlohmann::json to_json(const EnergyRecord& e) {
  nlohmann::json j = {{"cpu_joules", figure(e.cpu_joules)},
                      {"gpu_joules", figure(e.gpu_joules)},
                      {"cpu_zones", e.cpu_zones},
                      {"gpus", e.gpus},
                      {"seconds", e.seconds},
                      {"requests", e.requests},
                      {"output_tokens", e.output_tokens}};
  if (!e.cpu_joules) j["cpu_unavailable"] = e.cpu_unavailable;
  if (!e.gpu_joules) j["gpu_unavailable"] = e.gpu_unavailable;
  return j;
}

EnergyRecord read_energy_record(const SectionReader& r) {
  r.expect_object();
  EnergyRecord e;
  read_source(r, "cpu_joules", "cpu_unavailable", e.cpu_joules, e.cpu_unavailable);
  read_source(r, "gpu_joules", "gpu_unavailable", e.gpu_joules, e.gpu_unavailable);
  e.cpu_zones = int(r.integer("cpu_zones"));
  e.gpus = int(r.integer("gpus"));
  e.seconds = r.number("seconds");
  e.requests = r.integer("requests");
  e.output_tokens = r.integer("output_tokens");
  return e;
}

}  // namespace infergate

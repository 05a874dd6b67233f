#include "sim/calibration.h"

#include <algorithm>
#include <cmath>

#include "sim/sim_file_reader.h"

namespace infergate {

double Calibration::compute_efficiency_at(double tokens) const {
  const std::vector<EfficiencyPoint>& c = compute_efficiency;
  if (tokens <= c.front().tokens) return c.front().efficiency;
  if (tokens >= c.back().tokens) return c.back().efficiency;
  const auto hi = std::upper_bound(c.begin(), c.end(), tokens,
                                   [](double t, const EfficiencyPoint& p) { return t < p.tokens; });
  const auto lo = hi - 1;
  const double f =
      (std::log2(tokens) - std::log2(lo->tokens)) / (std::log2(hi->tokens) - std::log2(lo->tokens));
  return lo->efficiency + f * (hi->efficiency - lo->efficiency);
}

Calibration default_calibration(const HardwareSpec& hardware) {
  Calibration c;
  if (hardware.kind == "gpu") {
    // A serving engine with CUDA graphs: launch and scheduling cost per step, sampling per row.
    c.step_overhead_s = 400e-6;
    c.sequence_overhead_s = 4e-6;
  } else {
    c.compute_efficiency = {{1, 0.2}, {16, 0.4}, {256, 0.5}};
    c.memory_efficiency = 0.6;
    c.step_overhead_s = 100e-6;
    c.sequence_overhead_s = 10e-6;
  }
  c.hardware = hardware.name;
  return c;
}

Calibration parse_calibration(const nlohmann::json& doc, const std::string& file) {
  SimObjectReader r(doc, file);
  if (r.string("schema") != kCalibrationSchema) {
    r.fail("schema", std::string("must be \"") + kCalibrationSchema + "\"");
  }
  Calibration c;
  c.name = file;
  c.hardware = r.string_or("hardware", "");
  const nlohmann::json& curve = r.value("compute_efficiency");
  if (!curve.is_array() || curve.empty() || curve.size() > 64) {
    r.fail("compute_efficiency", "must be an array of 1 to 64 [tokens, efficiency] pairs");
  }
  c.compute_efficiency.clear();
  for (size_t i = 0; i < curve.size(); ++i) {
    const nlohmann::json& p = curve[i];
    const std::string at = "compute_efficiency[" + std::to_string(i) + "]";
    const bool pair = p.is_array() && p.size() == 2 && p[0].is_number() && p[1].is_number();
    if (!pair || !(p[0].get<double>() >= 1) || !(p[1].get<double>() > 0) ||
        !(p[1].get<double>() <= 1)) {
      throw SimFileError(file + ": " + at + ": must be [tokens >= 1, efficiency in (0, 1]], got " +
                         p.dump());
    }
    if (!c.compute_efficiency.empty() && p[0].get<double>() <= c.compute_efficiency.back().tokens) {
      throw SimFileError(file + ": " + at + ": tokens must increase along the curve");
    }
    c.compute_efficiency.push_back({p[0].get<double>(), p[1].get<double>()});
  }
  c.memory_efficiency = r.positive("memory_efficiency");
  if (c.memory_efficiency > 1) r.fail("memory_efficiency", "must be in (0, 1]");
  c.attention_efficiency = r.positive_or("attention_efficiency", 1);
  if (c.attention_efficiency > 1) r.fail("attention_efficiency", "must be in (0, 1]");
  c.step_overhead_s = r.non_negative_or("step_overhead_us", 0) * 1e-6;
  c.sequence_overhead_s = r.non_negative_or("sequence_overhead_us", 0) * 1e-6;
  c.token_overhead_s = r.non_negative_or("token_overhead_us", 0) * 1e-6;
  c.operator_overhead_s = r.non_negative_or("operator_overhead_us", 0) * 1e-6;
  if (r.has("fit")) c.fit = r.value("fit");
  r.finish();
  return c;
}

Calibration load_calibration(const std::string& path) {
  return parse_calibration(read_sim_json_file(path), path);
}

nlohmann::json calibration_to_json(const Calibration& c) {
  nlohmann::json curve = nlohmann::json::array();
  for (const EfficiencyPoint& p : c.compute_efficiency) curve.push_back({p.tokens, p.efficiency});
  nlohmann::json j = {{"schema", kCalibrationSchema},
                      {"compute_efficiency", curve},
                      {"memory_efficiency", c.memory_efficiency},
                      {"attention_efficiency", c.attention_efficiency},
                      {"step_overhead_us", c.step_overhead_s * 1e6},
                      {"sequence_overhead_us", c.sequence_overhead_s * 1e6},
                      {"token_overhead_us", c.token_overhead_s * 1e6},
                      {"operator_overhead_us", c.operator_overhead_s * 1e6}};
  if (!c.hardware.empty()) j["hardware"] = c.hardware;
  if (!c.fit.is_null()) j["fit"] = c.fit;
  return j;
}

}  // namespace infergate

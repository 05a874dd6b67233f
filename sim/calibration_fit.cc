#include "sim/calibration_fit.h"

#include <nlopt.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "engine/model/hf_config.h"
#include "sim/sim_file_reader.h"

namespace infergate {

namespace {

// x: the curve's efficiencies, then the memory and attention efficiencies, then the step,
// sequence, token and operator overheads in microseconds.
Calibration from_parameters(const std::vector<double>& x, const std::string& hardware) {
  Calibration c;
  c.hardware = hardware;
  const std::vector<double>& tokens = calibration_curve_tokens();
  c.compute_efficiency.clear();
  for (size_t i = 0; i < tokens.size(); ++i) c.compute_efficiency.push_back({tokens[i], x[i]});
  const size_t k = tokens.size();
  c.memory_efficiency = x[k];
  c.attention_efficiency = x[k + 1];
  c.step_overhead_s = x[k + 2] * 1e-6;
  c.sequence_overhead_s = x[k + 3] * 1e-6;
  c.token_overhead_s = x[k + 4] * 1e-6;
  c.operator_overhead_s = x[k + 5] * 1e-6;
  return c;
}

struct Problem {
  const HardwareSpec& hardware;
  const std::vector<MeasuredModel>& models;
  size_t steps = 0;
};

double mean_squared_log_error(const Problem& p, const Calibration& c) {
  double sum = 0;
  for (const MeasuredModel& m : p.models) {
    for (const MeasuredStep& s : m.steps) {
      const double r = std::log(predicted_step_seconds(m, p.hardware, c, s) / s.seconds);
      sum += r * r;
    }
  }
  return sum / double(p.steps);
}

double objective(unsigned n, const double* x, double* /*grad*/, void* data) {
  const Problem& p = *static_cast<const Problem*>(data);
  return mean_squared_log_error(p, from_parameters(std::vector<double>(x, x + n), p.hardware.name));
}

nlohmann::json precision_json(const Precision& p) {
  return {{"weight_dtype", p.weight_dtype},
          {"weight_bytes", p.weight_bytes},
          {"compute_dtype", p.compute_dtype},
          {"activation_bytes", p.activation_bytes},
          {"kv_bytes", p.kv_bytes}};
}

Precision read_precision(SimObjectReader r) {
  Precision p;
  p.weight_dtype = r.string("weight_dtype");
  p.weight_bytes = r.positive("weight_bytes");
  p.compute_dtype = r.string("compute_dtype");
  p.activation_bytes = r.positive("activation_bytes");
  p.kv_bytes = r.positive("kv_bytes");
  r.finish();
  return p;
}

MeasuredStep read_step(const nlohmann::json& j, const std::string& file, const std::string& path) {
  SimObjectReader r(j, file, path);
  MeasuredStep s;
  s.kind = r.string("kind");
  s.seconds = r.positive("seconds");
  const nlohmann::json& seqs = r.value("sequences");
  if (!seqs.is_array() || seqs.empty() || seqs.size() > 4096) {
    r.fail("sequences", "must be an array of 1 to 4096 [new_tokens, context_before, logit_rows]");
  }
  for (const nlohmann::json& q : seqs) {
    const bool ok = q.is_array() && q.size() == 3 && q[0].is_number() && q[1].is_number() &&
                    q[2].is_number() && q[0].get<double>() >= 1 && q[1].get<double>() >= 0 &&
                    q[2].get<double>() >= 0 && q[0].get<double>() <= 1e6 &&
                    q[1].get<double>() <= 1e7;
    if (!ok) r.fail("sequences", "each must be [new_tokens >= 1, context_before >= 0, rows >= 0]");
    s.sequences.push_back({q[0].get<double>(), q[1].get<double>(), q[2].get<double>()});
  }
  r.finish();
  return s;
}

}  // namespace

nlohmann::json measured_models_to_json(const std::vector<MeasuredModel>& models) {
  nlohmann::json out = nlohmann::json::array();
  for (const MeasuredModel& m : models) {
    nlohmann::json steps = nlohmann::json::array();
    for (const MeasuredStep& s : m.steps) {
      nlohmann::json seqs = nlohmann::json::array();
      for (const SequenceWork& w : s.sequences)
        seqs.push_back({w.new_tokens, w.context_before, w.logit_rows});
      steps.push_back({{"kind", s.kind}, {"seconds", s.seconds}, {"sequences", seqs}});
    }
    out.push_back({{"name", m.name},
                   {"config", nlohmann::json::parse(hf_config_json(m.model, DType::kF32))},
                   {"precision", precision_json(m.precision)},
                   {"steps", steps}});
  }
  return out;
}

std::vector<MeasuredModel> measured_models_from_json(const nlohmann::json& doc,
                                                     const std::string& file) {
  if (!doc.is_array() || doc.size() > 64) {
    throw SimFileError(file + ": fit.measurements: must be an array of at most 64 models");
  }
  std::vector<MeasuredModel> models;
  for (size_t i = 0; i < doc.size(); ++i) {
    const std::string path = "fit.measurements[" + std::to_string(i) + "]";
    SimObjectReader r(doc[i], file, path);
    MeasuredModel m;
    m.name = r.string("name");
    m.model = parse_hf_config(r.value("config").dump(), file + ": " + path + ".config");
    m.precision = read_precision(r.child("precision"));
    const nlohmann::json& steps = r.value("steps");
    if (!steps.is_array() || steps.size() > 10000)
      r.fail("steps", "must be an array of at most 10000 steps");
    for (size_t k = 0; k < steps.size(); ++k) {
      m.steps.push_back(read_step(steps[k], file, path + ".steps[" + std::to_string(k) + "]"));
    }
    r.finish();
    models.push_back(std::move(m));
  }
  return models;
}

const std::vector<double>& calibration_curve_tokens() {
  static const std::vector<double> tokens = {1, 8, 64, 512};
  return tokens;
}

double predicted_step_seconds(const MeasuredModel& model, const HardwareSpec& hardware,
                              const Calibration& calibration, const MeasuredStep& step) {
  const StepCostModel m(model.model, hardware, calibration, SimLayout{}, model.precision);
  return m.step(step.sequences).seconds;
}

Calibration fit_calibration(const HardwareSpec& hardware,
                            const std::vector<MeasuredModel>& models) {
  Problem problem{hardware, models};
  for (const MeasuredModel& m : models) problem.steps += m.steps.size();
  if (problem.steps == 0) throw std::invalid_argument("calibration fit: no measured steps");
  const size_t k = calibration_curve_tokens().size();
  const size_t n = k + 6;
  std::vector<double> lower(n, 0.005), upper(n, 1.0);
  lower[k + 2] = lower[k + 3] = lower[k + 4] = lower[k + 5] = 0;
  upper[k + 2] = 1e5, upper[k + 3] = 1e4, upper[k + 4] = 1e3, upper[k + 5] = 1e4;  // microseconds
  // Start from the documented defaults of this kind of device.
  const Calibration start = default_calibration(hardware);
  std::vector<double> x;
  for (double t : calibration_curve_tokens()) x.push_back(start.compute_efficiency_at(t));
  x.push_back(start.memory_efficiency);
  x.push_back(start.attention_efficiency);
  x.push_back(start.step_overhead_s * 1e6);
  x.push_back(start.sequence_overhead_s * 1e6);
  x.push_back(start.token_overhead_s * 1e6);
  x.push_back(start.operator_overhead_s * 1e6);

  nlopt_opt opt = nlopt_create(NLOPT_LN_SBPLX, unsigned(n));
  nlopt_set_lower_bounds(opt, lower.data());
  nlopt_set_upper_bounds(opt, upper.data());
  nlopt_set_min_objective(opt, objective, &problem);
  nlopt_set_xtol_rel(opt, 1e-6);
  nlopt_set_maxeval(opt, 20000);
  double best = 0;
  const nlopt_result status = nlopt_optimize(opt, x.data(), &best);
  nlopt_destroy(opt);
  if (status < 0) {
    throw std::runtime_error("calibration fit: the optimizer failed (nlopt status " +
                             std::to_string(int(status)) + ")");
  }

  Calibration c = from_parameters(x, hardware.name);
  double worst = 0;
  nlohmann::json by_model = nlohmann::json::array();
  for (const MeasuredModel& m : models) {
    by_model.push_back(
        {{"model", m.name}, {"weight_dtype", m.precision.weight_dtype}, {"steps", m.steps.size()}});
    for (const MeasuredStep& s : m.steps) {
      worst = std::max(worst, std::abs(predicted_step_seconds(m, hardware, c, s) / s.seconds - 1));
    }
  }
  c.fit = {{"steps", problem.steps},
           {"models", by_model},
           {"rms_log_error", std::sqrt(best)},
           {"worst_step_error", worst},
           {"measurements", measured_models_to_json(models)}};
  return c;
}

}  // namespace infergate

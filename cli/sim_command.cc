#include "cli/sim_command.h"

#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "bench/results/manifest.h"
#include "cli/command_line.h"
#include "cli/sim_step_measurement.h"
#include "common/io/json_file.h"
#include "common/util/time_stamp.h"
#include "engine/model/model_argument.h"
#include "engine/model/model_loader.h"
#include "sim/calibration_fit.h"
#include "sim/hardware_spec.h"
#include "sim/model_shape.h"
#include "sim/sim_catalog.h"

namespace infergate {

namespace po = boost::program_options;

namespace {

struct CalibrateOptions {
  std::vector<std::string> models;
  std::string hardware, weight_dtype, kv_dtype, out;
  std::string refit;  // a calibration file whose measurements are fitted again
  int threads = 0;
  int repetitions = 5;
};

MeasuredModel measure_model(const std::string& name, const CalibrateOptions& o,
                            const HardwareSpec& hardware) {
  ModelWeights weights = load_model(parse_model_argument(name, 0));
  EngineConfig config;
  config.weight_dtype = parse_weight_dtype(o.weight_dtype);
  config.kv_cache_dtype = parse_dtype(o.kv_dtype);
  config.num_threads = o.threads;
  MeasuredModel m;
  m.name = name;
  m.model = weights.config;
  m.precision =
      make_precision(o.weight_dtype, weights.embed.dtype(), config.kv_cache_dtype, hardware);
  weights.apply_weight_dtype(o.weight_dtype);
  StepGrid grid;
  grid.repetitions = o.repetitions;
  m.steps = measure_engine_steps(weights, config, grid);
  std::fprintf(stderr, "sim calibrate: %s: %zu steps measured\n", name.c_str(), m.steps.size());
  return m;
}

void print_fit(const std::vector<MeasuredModel>& models, const HardwareSpec& hardware,
               const Calibration& c) {
  std::printf("%-8s %-8s %6s %8s %12s %12s %8s\n", "model", "kind", "seqs", "tokens", "measured ms",
              "predicted ms", "error");
  for (const MeasuredModel& m : models) {
    for (const MeasuredStep& s : m.steps) {
      double tokens = 0;
      for (const SequenceWork& w : s.sequences) tokens += w.new_tokens;
      const double p = predicted_step_seconds(m, hardware, c, s);
      std::printf("%-8s %-8s %6zu %8.0f %12.3f %12.3f %+7.1f%%\n", m.name.c_str(), s.kind.c_str(),
                  s.sequences.size(), tokens, s.seconds * 1e3, p * 1e3, 100 * (p / s.seconds - 1));
    }
  }
  std::printf("rms log error %.3f, worst step %.1f%%\n", c.fit["rms_log_error"].get<double>(),
              100 * c.fit["worst_step_error"].get<double>());
}

int calibrate(const CalibrateOptions& o) {
  check_writable(o.out);
  const HardwareSpec hardware = load_hardware_spec(o.hardware);
  std::vector<MeasuredModel> models;
  nlohmann::json measured_on;
  if (!o.refit.empty()) {
    const Calibration old = load_calibration(o.refit);
    models = measured_models_from_json(old.fit.value("measurements", nlohmann::json()), o.refit);
    measured_on = old.fit.value("measured_on", nlohmann::json());
  } else {
    for (const std::string& name : o.models) models.push_back(measure_model(name, o, hardware));
    measured_on = build_manifest("", 0).value("host", nlohmann::json());
    measured_on["threads"] = o.threads;
    measured_on["at"] = utc_iso8601_now();
  }
  Calibration c = fit_calibration(hardware, models);
  c.fit["measured_on"] = measured_on;
  print_fit(models, hardware, c);
  write_json_atomically(calibration_to_json(c), o.out);
  std::printf("calibration: %s\n", o.out.c_str());
  return 0;
}

int list() {
  std::printf("hardware (sim/hardware):\n");
  for (const std::string& name : sim_catalog_names("hardware")) {
    const HardwareSpec h = load_hardware_spec(name);
    std::printf("  %-16s %s, %.0f GiB, %.0f GB/s\n", name.c_str(), h.kind.c_str(),
                h.memory_bytes / (1 << 30), h.memory_bandwidth_bytes_s / 1e9);
  }
  std::printf("models (sim/models; also the presets %s):\n", preset_names());
  for (const std::string& name : sim_catalog_names("models")) {
    const ModelShape s = load_model_shape(name);
    std::printf("  %-16s %.1f B parameters, %d layers\n", name.c_str(),
                double(s.config.num_parameters()) / 1e9, s.config.num_layers);
  }
  return 0;
}

}  // namespace

int sim_command(int argc, char** argv) {
  std::string action;
  CalibrateOptions o;
  po::options_description desc(
      "infergate sim calibrate --out FILE [options] | list\n"
      "calibrate: times the engine's steps on this machine (prefills, decode batches, both\n"
      "mixed) and fits the simulator's efficiencies and fixed costs to them");
  desc.add_options()("help,h", "show this help")("action", po::value(&action)->required(),
                                                 "calibrate or list")(
      "model", po::value(&o.models)->multitoken(),
      "calibrate: models to time (presets, .gguf, safetensors; default: tiny small)")(
      "hardware", po::value(&o.hardware)->default_value("epyc-zen4-2core"),
      "calibrate: the hardware file the efficiencies are relative to")(
      "weight-dtype", po::value(&o.weight_dtype)->default_value("auto"),
      "calibrate: the engine's weight_dtype")(
      "kv-dtype", po::value(&o.kv_dtype)->default_value("f32"), "calibrate: the KV cache dtype")(
      "threads", po::value(&o.threads)->default_value(0), "calibrate: engine threads (0: all)")(
      "repetitions", po::value(&o.repetitions)->default_value(5),
      "calibrate: timings per step shape (the median is kept)")(
      "out", po::value(&o.out)->default_value(""), "calibrate: the calibration file to write")(
      "refit", po::value(&o.refit)->default_value(""),
      "calibrate: fit again the measurements kept in this calibration file (no timing)");
  po::positional_options_description positional;
  positional.add("action", 1);
  const auto parsed = parse_command_line(argc, argv, desc, positional);
  if (!parsed) return 0;
  if (action == "list") return list();
  if (action != "calibrate") {
    std::cerr << "infergate sim: unknown action '" << action << "' (allowed: calibrate, list)\n";
    return 2;
  }
  if (o.out.empty()) {
    std::cerr << "infergate sim calibrate: --out FILE is required\n";
    return 2;
  }
  if (o.models.empty()) o.models = {"tiny", "small"};
  if (o.repetitions < 1 || o.repetitions > 100) {
    std::cerr << "infergate sim calibrate: --repetitions must be in [1, 100]\n";
    return 2;
  }
  return calibrate(o);
}

}  // namespace infergate

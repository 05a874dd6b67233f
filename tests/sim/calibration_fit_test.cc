// The calibration fit recovers a device from its step times, and keeps its measurements.
#include <catch2/catch.hpp>

#include <cmath>

#include "sim/calibration_fit.h"
#include "sim/hardware_spec.h"
#include "sim/model_shape.h"
#include "sim/sim_file_reader.h"

using namespace infergate;

namespace {

// Steps of every kind the calibration times, on `model`, timed by `truth`.
MeasuredModel synthetic_measurements(const std::string& name, const HardwareSpec& hw,
                                     const Calibration& truth) {
  MeasuredModel m;
  m.name = name;
  m.model = load_model_shape(name).config;
  m.precision = make_precision("auto", DType::kF32, DType::kF32, hw);
  for (int p : {8, 32, 128, 512}) m.steps.push_back({{{double(p), 0, 1}}, 0, "prefill"});
  for (int b : {1, 4, 16, 32}) {
    for (int c : {32, 512}) {
      MeasuredStep s;
      s.kind = "decode";
      for (int i = 0; i < b; ++i) s.sequences.push_back({1, double(c), 1});
      m.steps.push_back(s);
    }
  }
  for (MeasuredStep& s : m.steps) s.seconds = predicted_step_seconds(m, hw, truth, s);
  return m;
}

}  // namespace

TEST_CASE("the calibration fit recovers the step times of a known device") {
  const HardwareSpec hw = load_hardware_spec("epyc-zen4-2core");
  Calibration truth;
  truth.compute_efficiency = {{1, 0.1}, {8, 0.25}, {64, 0.45}, {512, 0.6}};
  truth.memory_efficiency = 0.55;
  truth.attention_efficiency = 0.3;
  truth.step_overhead_s = 150e-6;
  truth.sequence_overhead_s = 12e-6;
  truth.operator_overhead_s = 8e-6;
  const std::vector<MeasuredModel> models = {synthetic_measurements("tiny", hw, truth),
                                             synthetic_measurements("small", hw, truth)};
  const Calibration fit = fit_calibration(hw, models);
  // Every measured step predicted within 3% (the parameters themselves may trade off).
  CHECK(fit.fit["worst_step_error"].get<double>() < 0.03);
  CHECK(fit.fit["steps"] == 24);
  CHECK(fit.hardware == "epyc-zen4-2core");
  // Steps it never saw: a larger decode batch, a longer context.
  MeasuredStep unseen;
  for (int i = 0; i < 24; ++i) unseen.sequences.push_back({1, 300, 1});
  const double want = predicted_step_seconds(models[1], hw, truth, unseen);
  CHECK(predicted_step_seconds(models[1], hw, fit, unseen) == Approx(want).epsilon(0.05));
}

TEST_CASE("a calibration keeps its measurements and they read back") {
  const HardwareSpec hw = load_hardware_spec("epyc-zen4-2core");
  const std::vector<MeasuredModel> models = {
      synthetic_measurements("tiny", hw, default_calibration(hw))};
  const nlohmann::json doc = measured_models_to_json(models);
  const std::vector<MeasuredModel> back = measured_models_from_json(doc, "c.json");
  REQUIRE(back.size() == 1);
  CHECK(back[0].model.hidden_size == models[0].model.hidden_size);
  CHECK(back[0].steps.size() == models[0].steps.size());
  CHECK(back[0].steps[5].seconds == models[0].steps[5].seconds);
  CHECK(back[0].precision.compute_dtype == "f32");
  nlohmann::json bad = doc;
  bad[0]["steps"][2]["sequences"][0] = {0, 5, 1};
  CHECK_THROWS_WITH(
      measured_models_from_json(bad, "c.json"),
      Catch::Contains("c.json: fit.measurements[0].steps[2].sequences: each must be"));
  CHECK_THROWS_AS(fit_calibration(hw, {}), std::invalid_argument);
}

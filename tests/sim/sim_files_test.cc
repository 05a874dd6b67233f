// Hardware, model-shape and calibration files: the shipped ones load, bad ones are refused with
// the file and the field named.
#include <catch2/catch.hpp>

#include <fstream>

#include "../temp_dir.h"
#include "common/io/json_text.h"
#include "sim/calibration.h"
#include "sim/hardware_spec.h"
#include "sim/model_shape.h"
#include "sim/sim_catalog.h"
#include "sim/sim_file_reader.h"

using namespace infergate;

namespace {

std::string hardware_error(const std::string& text) {
  try {
    parse_hardware_spec(parse_json_text(text), "bad.json");
  } catch (const SimFileError& e) {
    return e.what();
  }
  return "no error";
}

const char* kGood = R"({"name": "x", "kind": "gpu", "memory_gib": 10,
  "memory_bandwidth_gb_s": 100, "peak_tflops": {"bf16": 10},
  "intra_node": {"bandwidth_gb_s": 10}, "inter_node": {"bandwidth_gb_s": 1}})";

}  // namespace

TEST_CASE("every shipped hardware and model file loads") {
  const auto hardware = sim_catalog_names("hardware");
  CHECK(hardware ==
        std::vector<std::string>{"a100-80gb", "epyc-zen4-2core", "h100-sxm", "h200", "l40s"});
  for (const std::string& name : hardware) {
    const HardwareSpec h = load_hardware_spec(name);
    CHECK(h.name == name);
    CHECK_FALSE(h.sources.empty());
  }
  const auto models = sim_catalog_names("models");
  CHECK(models.size() == 5);
  for (const std::string& name : models) CHECK(load_model_shape(name).config.name == name);
  CHECK(load_model_shape("llama-3-70b").config.num_layers == 80);
  CHECK(load_model_shape("deepseek-moe-16b").config.moe.num_experts == 64);
  CHECK(load_model_shape("tiny").native_dtype == DType::kF32);
}

TEST_CASE("a bad hardware file names the field and the rule") {
  CHECK(hardware_error(kGood) == "no error");
  std::string t = kGood;
  CHECK_THAT(hardware_error(std::string(kGood).replace(t.find("\"memory_gib\": 10"), 16,
                                                       "\"memory_gib\": -1")),
             Catch::Contains("bad.json: memory_gib: must be a finite number > 0, got -1"));
  CHECK_THAT(hardware_error(std::string(kGood).replace(t.find("\"bf16\""), 6, "\"bf17\"")),
             Catch::Contains("peak_tflops.bf17: unknown compute dtype"));
  CHECK_THAT(hardware_error(std::string(kGood).replace(t.find("\"memory_bandwidth_gb_s\""), 23,
                                                       "\"memory_bandwith_gb_s\"")),
             Catch::Contains("memory_bandwidth_gb_s: missing"));
  CHECK_THAT(hardware_error(
                 std::string(kGood).replace(t.find("\"kind\": \"gpu\""), 13, "\"kind\": \"tpu\"")),
             Catch::Contains("kind: must be one of gpu, cpu, got \"tpu\""));
  CHECK_THAT(hardware_error(R"({"name": "x", "colour": 1})"), Catch::Contains("kind: missing"));
  CHECK_THAT(hardware_error("[1]"), Catch::Contains("must be a JSON object"));
  std::string extra = kGood;
  extra.insert(1, "\"colour\": \"red\", ");
  CHECK_THAT(hardware_error(extra), Catch::Contains("bad.json: colour: unknown key"));
  CHECK_THROWS_WITH(load_hardware_spec("h300"), Catch::Contains("built in: a100-80gb"));
  CHECK_THROWS_WITH(load_hardware_spec("/nonexistent/hw.json"),
                    Catch::Contains("/nonexistent/hw.json: no such file"));
}

TEST_CASE("calibration files round-trip and bad curves are refused") {
  Calibration c = default_calibration(load_hardware_spec("epyc-zen4-2core"));
  c.fit = {{"steps", 12}};
  const Calibration back = parse_calibration(calibration_to_json(c), "c.json");
  CHECK(back.compute_efficiency.size() == c.compute_efficiency.size());
  CHECK(back.step_overhead_s == Approx(c.step_overhead_s));
  CHECK(back.hardware == "epyc-zen4-2core");
  // Interpolated in log2(tokens), flat beyond the ends.
  Calibration curve;
  curve.compute_efficiency = {{1, 0.2}, {16, 0.6}};
  CHECK(curve.compute_efficiency_at(4) == Approx(0.4));
  CHECK(curve.compute_efficiency_at(1000) == Approx(0.6));
  nlohmann::json bad = calibration_to_json(c);
  bad["compute_efficiency"] = {{1, 0.5}, {1, 0.6}};
  CHECK_THROWS_WITH(parse_calibration(bad, "c.json"),
                    Catch::Contains("c.json: compute_efficiency[1]: tokens must increase"));
  bad["compute_efficiency"] = {{1, 1.5}};
  CHECK_THROWS_WITH(parse_calibration(bad, "c.json"), Catch::Contains("efficiency in (0, 1]"));
  bad = calibration_to_json(c);
  bad["schema"] = "v0";
  CHECK_THROWS_WITH(parse_calibration(bad, "c.json"), Catch::Contains("c.json: schema: must be"));
}

TEST_CASE("a model shape from a config.json path, and a missing one named") {
  infergate::testing::TempDir dir;
  const std::string path = dir.file("config.json");
  std::ofstream(path) << R"({"architectures": ["LlamaForCausalLM"], "vocab_size": 1000,
    "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
    "num_attention_heads": 4, "torch_dtype": "float16"})";
  const ModelShape s = load_model_shape(dir.path().string());
  CHECK(s.config.num_layers == 2);
  CHECK(s.native_dtype == DType::kF16);
  CHECK_THROWS_WITH(load_model_shape("llama-9-1t"), Catch::Contains("built in: deepseek-moe-16b"));
  std::ofstream(path) << R"({"architectures": ["LlamaForCausalLM"]})";
  CHECK_THROWS_WITH(load_model_shape(path), Catch::Contains("missing field 'vocab_size'"));
}

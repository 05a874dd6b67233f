#include "cli/quantize_command.h"

#include <algorithm>
#include <boost/program_options.hpp>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>

#include "bench/quality/quality_text.h"
#include "cli/command_line.h"
#include "cli/model_argument.h"
#include "engine/forward/activation_ranges.h"

namespace infergate {

namespace {

namespace po = boost::program_options;

// The formats this command writes; group-128 INT4 with AWQ is not built yet.
constexpr const char* kTargets = "q8_0, q4_0, q4_1, q4_k, w8a8";

DType parse_target(const std::string& to) {
  if (to == "q8_0" || to == "q4_0" || to == "q4_1" || to == "q4_k" || to == "w8a8") {
    return parse_dtype(to);
  }
  if (to == "int4-g128") {
    throw std::invalid_argument("--to " + to +
                                " is not built yet (docs/quantization.md); allowed: " + kTargets);
  }
  throw std::invalid_argument("--to '" + to + "' is not a quantized format (allowed: " + kTargets +
                              ")");
}

struct Calibration {
  std::string text;  // empty: none
  int tokens = 256;
  double alpha = 0.5;
};

void check_calibration(const Calibration& c, DType dtype) {
  if (c.text.empty()) return;
  if (dtype != DType::kW8A8) {
    throw std::invalid_argument(
        "--calibration smooths activations for --to w8a8 (SmoothQuant); the activation-aware "
        "search for 4-bit weights (AWQ) is not built yet");
  }
  if (c.tokens < 16 || c.tokens > 4096) {
    throw std::invalid_argument("--calibration-tokens " + std::to_string(c.tokens) +
                                " is out of range (16 .. 4096)");
  }
  if (!(c.alpha >= 0.0 && c.alpha <= 1.0)) {
    throw std::invalid_argument("--alpha " + std::to_string(c.alpha) + " is out of range (0 .. 1)");
  }
}

// SmoothQuant over the first c.tokens tokens of the calibration text (fewer if the text or the
// model's context is shorter); prints how far it shrank the activation outliers.
void smooth_with_calibration(ModelWeights& w, const ModelSource& source, const Calibration& c) {
  std::vector<int32_t> tokens = tokenize_quality_text(c.text, source, w.vocab);
  const size_t limit = size_t(std::min<int64_t>(c.tokens, w.config.max_position_embeddings));
  if (tokens.size() > limit) tokens.resize(limit);
  if (tokens.size() < 2) {
    throw std::invalid_argument("--calibration " + c.text + " gives " +
                                std::to_string(tokens.size()) + " token(s); at least 2 needed");
  }
  const ActivationRanges before = measure_activation_ranges(w, tokens);
  const ActivationRanges after = smooth_quant(w, before, c.alpha);
  std::cout << "SmoothQuant (alpha " << c.alpha << ") over " << tokens.size()
            << " calibration tokens: largest / median channel range " << outlier_ratio(before)
            << " -> " << outlier_ratio(after) << "\n";
}

// "12 x q4_k, 1 x q4_1, 25 x f32": tensors per dtype.
std::string dtype_counts(const ModelWeights& w) {
  std::map<std::string, int> counts;
  w.for_each_tensor([&](const std::string&, const Tensor& t) { ++counts[dtype_name(t.dtype())]; });
  std::string out;
  for (const auto& [name, n] : counts) {
    out += (out.empty() ? "" : ", ") + std::to_string(n) + " x " + name;
  }
  return out;
}

}  // namespace

int quantize_command(int argc, char** argv) {
  std::string model = "tiny", to, out;
  uint64_t seed = 0;
  Calibration calibration;
  po::options_description desc("infergate quantize --to FORMAT --out FILE.gguf [options]");
  desc.add_options()("help,h", "show this help")(
      "model", po::value(&model)->default_value(model),
      "preset (tiny, small, moe-tiny), .gguf file or safetensors directory")(
      "model-seed", po::value(&seed)->default_value(0), "seed of synthetic weights")(
      "to", po::value(&to)->required(),
      "q8_0 | q4_0 | q4_1 | q4_k | w8a8 (written as Q8_0 blocks)")(
      "out", po::value(&out)->required(), "output .gguf file")(
      "calibration", po::value(&calibration.text),
      "w8a8: a UTF-8 text whose activations set SmoothQuant's factors (the plain reference "
      "forward runs over it: about 0.1 s per token on the small preset)")(
      "calibration-tokens", po::value(&calibration.tokens)->default_value(calibration.tokens),
      "tokens of the calibration text used (16 .. 4096)")(
      "alpha", po::value(&calibration.alpha)->default_value(calibration.alpha),
      "SmoothQuant's migration strength (0 .. 1)");
  const auto parsed = parse_command_line(argc, argv, desc);
  if (!parsed) return 0;
  const DType dtype = parse_target(to);
  check_calibration(calibration, dtype);
  check_export_path("gguf", out);  // before loading and converting, not after
  const ModelSource source = parse_model_argument(model, seed);
  ModelWeights weights = load_model(source);
  const size_t before = weights.nbytes();
  if (!calibration.text.empty()) smooth_with_calibration(weights, source, calibration);
  weights.convert_matrices(dtype);
  export_model(weights, "gguf", out);
  std::cout << "wrote " << out << ": " << before << " -> " << weights.nbytes()
            << " bytes of weights; tensors: " << dtype_counts(weights)
            << (dtype == DType::kW8A8 ? " (w8a8 as Q8_0 blocks, one scale per row)" : "") << "\n";
  return 0;
}

}  // namespace infergate

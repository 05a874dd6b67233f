#include "cli/quantize_command.h"

#include <algorithm>
#include <boost/program_options.hpp>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

#include "bench/quality/quality_text.h"
#include "cli/command_line.h"
#include "common/io/input_file.h"
#include "engine/forward/activation_ranges.h"
#include "engine/forward/activation_samples.h"
#include "engine/model/hf_gguf_vocabulary.h"
#include "engine/model/hf_tokenizer_files.h"
#include "engine/model/llama_cpp_preset.h"
#include "engine/model/model_argument.h"
#include "engine/model/model_loader.h"
#include "engine/model/safetensors_writer.h"

namespace infergate {

namespace {

namespace po = boost::program_options;

// The formats this command writes.
constexpr const char* kTargets =
    "q8_0, q4_0, q4_1, q4_k, q5_0, q5_1, q2_k, q3_k, q5_k, q6_k, iq4_nl, iq4_xs, w8a8, fp8, "
    "int4-g32, "
    "int4-g128, or a llama.cpp preset: Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q2_K, Q3_K_S, Q3_K_M, Q3_K_L, "
    "Q4_K_S, Q4_K_M, Q5_K_S, Q5_K_M, Q6_K, IQ4_NL, IQ4_XS";

// The calibration rows AWQ's loss is computed over (its mean |x| uses every token).
constexpr int64_t kAwqLossRows = 256;

struct Target {
  DType dtype = DType::kF32;
  int64_t int4_group = 0;  // > 0: group-wise INT4 (stored as Q4_1 blocks)
  std::string preset;      // a llama.cpp preset's mixture (llama_cpp_preset.h)
};

Target parse_target(const std::string& to) {
  if (is_llama_cpp_preset(to)) return {DType::kF32, 0, to};
  for (const char* name : {"q8_0", "q4_0", "q4_1", "q4_k", "q5_0", "q5_1", "q2_k", "q3_k", "q5_k",
                           "q6_k", "iq4_nl", "iq4_xs", "w8a8", "fp8"}) {
    if (to == name) return {parse_dtype(to), 0, ""};
  }
  if (to == "int4-g32") return {DType::kQ4_1, 32, ""};
  if (to == "int4-g128") return {DType::kQ4_1, 128, ""};
  throw std::invalid_argument("--to '" + to + "' is not a quantized format (allowed: " + kTargets +
                              ")");
}

// safetensors has standard quantized layouts for group-wise INT4 (AWQ's) and FP8 (DeepSeek-V3's
// blocks) only, and GGUF none for FP8; the other pairs would be written dequantized, which is
// not what this command promises.
void check_format(const std::string& format, const Target& target, const std::string& to) {
  if (format != "gguf" && format != "safetensors") {
    throw std::invalid_argument("--format '" + format +
                                "' is not allowed (allowed: gguf, safetensors)");
  }
  const bool fp8 = target.dtype == DType::kFP8;
  if (format == "gguf" && fp8) {
    throw std::invalid_argument(
        "--to fp8 is written as a safetensors checkpoint (GGUF has no FP8 type): add --format "
        "safetensors");
  }
  if (format == "safetensors" && target.int4_group == 0 && !fp8) {
    throw std::invalid_argument("--format safetensors has no standard layout for --to " + to +
                                " (int4-g32 and int4-g128 are written in AWQ's, fp8 in "
                                "DeepSeek-V3's blocks; use gguf)");
  }
}

struct Calibration {
  std::string text;  // empty: none
  int tokens = 256;
  double alpha = 0.5;
};

// The offset of the first byte that does not start a valid UTF-8 character (overlong forms,
// surrogates and code points past U+10FFFF included), or npos when `text` is all valid.
size_t first_invalid_utf8(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    const auto b = static_cast<unsigned char>(text[i]);
    const size_t n = b < 0x80           ? 1
                     : (b >> 5) == 0x6  ? 2
                     : (b >> 4) == 0xE  ? 3
                     : (b >> 3) == 0x1E ? 4
                                        : 0;
    if (n == 0 || i + n > text.size()) return i;
    uint32_t cp = n == 1 ? b : b & (0x7F >> n);
    for (size_t k = 1; k < n; ++k) {
      const auto c = static_cast<unsigned char>(text[i + k]);
      if ((c & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (c & 0x3F);
    }
    static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += n;
  }
  return std::string_view::npos;
}

// The calibration text must be text: a binary file's bytes would tokenize to something (the
// byte tokenizer spells any byte) and calibrate on it without a word.
void check_calibration_text(const std::string& path) {
  const std::string text = read_regular_file(path, kMaxQualityTextBytes);
  if (const size_t at = first_invalid_utf8(text); at != std::string_view::npos) {
    throw std::invalid_argument("--calibration " + path.substr(0, 200) +
                                ": not UTF-8 text (invalid byte at offset " + std::to_string(at) +
                                ")");
  }
}

void check_calibration(const Calibration& c, const Target& target) {
  if (c.text.empty()) return;
  if (target.dtype != DType::kW8A8 && target.int4_group == 0) {
    throw std::invalid_argument(
        "--calibration applies to --to w8a8 (SmoothQuant) and --to int4-g32|int4-g128 (AWQ's "
        "scale search), not to --to " +
        std::string(dtype_name(target.dtype)));
  }
  if (c.tokens < 16 || c.tokens > 4096) {
    throw std::invalid_argument("--calibration-tokens " + std::to_string(c.tokens) +
                                " is out of range (16 .. 4096)");
  }
  if (!(c.alpha >= 0.0 && c.alpha <= 1.0)) {
    throw std::invalid_argument("--alpha " + std::to_string(c.alpha) + " is out of range (0 .. 1)");
  }
  check_calibration_text(c.text);
}

// The first c.tokens tokens of the calibration text (fewer if the text or the model's context
// is shorter).
std::vector<int32_t> calibration_tokens(const ModelWeights& w, const ModelSource& source,
                                        const Calibration& c) {
  std::vector<int32_t> tokens = tokenize_quality_text(c.text, source, w.vocab);
  const size_t limit = size_t(std::min<int64_t>(c.tokens, w.config.max_position_embeddings));
  if (tokens.size() > limit) tokens.resize(limit);
  if (tokens.size() < 2) {
    throw std::invalid_argument("--calibration " + c.text + " gives " +
                                std::to_string(tokens.size()) + " token(s); at least 2 needed");
  }
  return tokens;
}

// SmoothQuant; prints how far it shrank the activation outliers.
void smooth_with_calibration(ModelWeights& w, const ModelSource& source, const Calibration& c) {
  const std::vector<int32_t> tokens = calibration_tokens(w, source, c);
  const ActivationRanges before = measure_activation_ranges(w, tokens);
  const ActivationRanges after = smooth_quant(w, before, c.alpha);
  std::cout << "SmoothQuant (alpha " << c.alpha << ") over " << tokens.size()
            << " calibration tokens: largest / median channel range " << outlier_ratio(before)
            << " -> " << outlier_ratio(after) << "\n";
}

// AWQ's scale search; prints how much of plain INT4's calibration output error it removed.
void awq_with_calibration(ModelWeights& w, const ModelSource& source, const Calibration& c,
                          int64_t group) {
  const std::vector<int32_t> tokens = calibration_tokens(w, source, c);
  const ActivationSamples samples = measure_activation_samples(w, tokens, kAwqLossRows);
  const std::vector<AwqSiteChoice> choices = awq_search(w, samples, group);
  double plain = 0, chosen = 0, alpha = 0;
  for (const AwqSiteChoice& s : choices) {
    plain += s.plain_loss;
    chosen += s.chosen_loss;
    alpha += s.alpha / double(choices.size());
  }
  std::cout << "AWQ over " << tokens.size() << " calibration tokens, " << choices.size()
            << " sites (mean alpha " << alpha << "): squared output error of INT4 on them "
            << (plain > 0 ? chosen / plain : 1.0) << "x plain INT4's\n";
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
  std::string model = "tiny", to, out, format = "gguf";
  uint64_t seed = 0;
  Calibration calibration;
  po::options_description desc("infergate quantize --to FORMAT --out FILE.gguf [options]");
  desc.add_options()("help,h", "show this help")("model", po::value(&model)->default_value(model),
                                                 kModelArgumentHelp)(
      "model-seed", po::value(&seed)->default_value(0), "seed of synthetic weights")(
      "to", po::value(&to)->required(),
      "q8_0 | q4_0 | q4_1 | q4_k | q5_0 | q5_1 | q2_k | q3_k | q5_k | q6_k | iq4_nl | iq4_xs | "
      "w8a8 (written as Q8_0 blocks) | fp8 (safetensors: e4m3 with a scale per 128x128 block) | "
      "int4-g32 | int4-g128 "
      "(group-wise INT4 with zero points, written as Q4_1 blocks) | a llama.cpp preset, upper "
      "case (Q4_K_M, Q3_K_S, IQ4_XS, ...: its per-tensor mixture)")(
      "out", po::value(&out)->required(), "output .gguf file (or directory, for safetensors)")(
      "format", po::value(&format)->default_value(format),
      "gguf | safetensors (int4-g*: AutoAWQ's packed layout; fp8: DeepSeek-V3's blocks; both "
      "load in transformers and vLLM)")(
      "calibration", po::value(&calibration.text),
      "w8a8 or int4-g*: a UTF-8 text whose activations set SmoothQuant's factors or AWQ's "
      "scales (the plain reference forward runs over it: about 0.1 s per token on the small "
      "preset)")("calibration-tokens",
                 po::value(&calibration.tokens)->default_value(calibration.tokens),
                 "tokens of the calibration text used (16 .. 4096)")(
      "alpha", po::value(&calibration.alpha)->default_value(calibration.alpha),
      "SmoothQuant's migration strength (0 .. 1; w8a8 only, AWQ searches its own)");
  const auto parsed = parse_command_line(argc, argv, desc);
  if (!parsed) return 0;
  const Target target = parse_target(to);
  check_calibration(calibration, target);
  check_format(format, target, to);
  check_export_path(format, out);  // before loading and converting, not after
  const ModelSource source = parse_model_argument(model, seed);
  ModelWeights weights = load_model(source);
  if (format != "safetensors") weights.vocab = vocabulary_for_gguf(weights, source);
  const TokenizerFilesToWrite tokenizer =
      format == "safetensors" ? tokenizer_files_for(source) : TokenizerFilesToWrite{};
  const size_t before = weights.nbytes();
  if (target.int4_group > 0) {
    if (!calibration.text.empty()) {
      awq_with_calibration(weights, source, calibration, target.int4_group);
    }
    weights.convert_matrices_int4(target.int4_group);
  } else if (!target.preset.empty()) {
    apply_llama_cpp_preset(weights, target.preset);
  } else if (target.dtype == DType::kFP8) {
    weights.convert_matrices_fp8();
  } else {
    if (!calibration.text.empty()) smooth_with_calibration(weights, source, calibration);
    weights.convert_matrices(target.dtype);
  }
  if (format == "safetensors") {
    write_safetensors(weights, out, target.int4_group);
    write_tokenizer_files(tokenizer, out);
    if (!tokenizer.not_written.empty()) {
      std::cerr << "no tokenizer files written: " << tokenizer.not_written << "\n";
    }
  } else {
    export_model(weights, "gguf", out);
  }
  std::cout << "wrote " << out << ": " << before << " -> " << weights.nbytes()
            << " bytes of weights; tensors: " << dtype_counts(weights)
            << (target.dtype == DType::kW8A8 ? " (w8a8 as Q8_0 blocks, one scale per row)" : "")
            << (target.int4_group > 0 ? " (" + to + " as Q4_1 blocks)" : "") << "\n";
  return 0;
}

}  // namespace infergate

#include "cli/export_command.h"

#include <boost/program_options.hpp>
#include <iostream>

#include "cli/command_line.h"
#include "engine/model/hf_gguf_vocabulary.h"
#include "engine/model/hf_tokenizer_files.h"
#include "engine/model/model_argument.h"
#include "engine/model/model_loader.h"

namespace infergate {

namespace po = boost::program_options;

int export_command(int argc, char** argv) {
  std::string model = "tiny", format, out, dtype = "auto";
  uint64_t seed = 0;
  po::options_description desc("infergate export --format gguf|safetensors --out PATH [options]");
  desc.add_options()("help,h", "show this help")("model", po::value(&model)->default_value(model),
                                                 kModelArgumentHelp)(
      "model-seed", po::value(&seed)->default_value(0), "seed of synthetic weights")(
      "format", po::value(&format)->required(), "gguf | safetensors")(
      "out", po::value(&out)->required(), "output .gguf file or safetensors directory")(
      "dtype", po::value(&dtype)->default_value(dtype),
      "auto | f32 | f16 | bf16 | q8_0 | q4_0 | q4_1 | q4_k | q5_0 | q5_1 | q2_k | q3_k | q5_k | "
      "q6_k | iq4_nl | iq4_xs | w8a8 | fp8 (safetensors only) | a llama.cpp preset (Q4_K_M, "
      "Q3_K_S, "
      "...: its mixture)");
  const auto parsed = parse_command_line(argc, argv, desc);
  if (!parsed) return 0;
  check_export_path(format, out);  // before loading and converting, not after
  const ModelSource source = parse_model_argument(model, seed);
  ModelWeights weights = load_model(source);
  // A Hugging Face directory's tokenizer.json goes into the GGUF, a GGUF's vocabulary beside the
  // safetensors (both gathered before converting).
  if (format == "gguf") weights.vocab = vocabulary_for_gguf(weights, source);
  const TokenizerFilesToWrite tokenizer =
      format == "safetensors" ? tokenizer_files_for(source) : TokenizerFilesToWrite{};
  weights.apply_weight_dtype(dtype);
  export_model(weights, format, out);
  const int tokenizer_files = write_tokenizer_files(tokenizer, out);
  if (!tokenizer.not_written.empty()) {
    std::cerr << "no tokenizer files written: " << tokenizer.not_written << "\n";
  }
  std::cout << "wrote " << out << " (" << format << ", " << weights.nbytes()
            << " bytes of weights" +
                   (tokenizer_files ? ", " + std::to_string(tokenizer_files) + " tokenizer files"
                                    : std::string())
            << ")\n";
  return 0;
}

}  // namespace infergate

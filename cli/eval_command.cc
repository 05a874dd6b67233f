#include "cli/eval_command.h"

#include <boost/program_options.hpp>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/quality/evaluate_quality.h"
#include "bench/quality/quality_text.h"
#include "cli/command_line.h"
#include "common/io/json_file.h"
#include "engine/model/model_argument.h"
#include "engine/model/model_loader.h"

namespace infergate {

namespace po = boost::program_options;

namespace {

nlohmann::json stats_json(const StatSummary& s) {
  return {{"mean", s.mean}, {"p50", s.p50}, {"p90", s.p90},
          {"p95", s.p95},   {"p99", s.p99}, {"max", s.max}};
}

void print_table(const QualitySummary& q, const std::string& dtype,
                 const std::string& baseline_dtype) {
  std::printf("quality of %s against %s over %lld positions\n", dtype.c_str(),
              baseline_dtype.c_str(), static_cast<long long>(q.positions));
  std::printf("  perplexity          %.4f (baseline %.4f, ln ratio %+.5f)\n", q.perplexity,
              q.baseline_perplexity, std::log(q.perplexity / q.baseline_perplexity));
  std::printf("  KL divergence       mean %.6f  p50 %.6f  p99 %.6f  max %.6f\n",
              q.kl_divergence.mean, q.kl_divergence.p50, q.kl_divergence.p99, q.kl_divergence.max);
  std::printf("  top-1 agreement     %.2f%%\n", 100.0 * q.top1_agreement);
}

DType parse_kv_dtype(const std::string& name) {
  for (const char* allowed : {"f32", "f16", "bf16", "int8", "fp8_e4m3"}) {
    if (name == allowed) return parse_dtype(name);
  }
  throw std::invalid_argument("--kv-dtype " + name.substr(0, 40) +
                              ": not a KV cache dtype (allowed: f32, f16, bf16, int8, fp8_e4m3)");
}

}  // namespace

int eval_command(int argc, char** argv) {
  std::string model = "trained", dtype = "auto", baseline_model, baseline_dtype = "f32", text, out;
  std::string kv_dtype = "f32";
  uint64_t seed = 0;
  int threads = 0;
  QualityOptions options;
  po::options_description desc("infergate eval --text FILE [options]");
  desc.add_options()("help,h", "show this help")("model", po::value(&model)->default_value(model),
                                                 kModelArgumentHelp)(
      "model-seed", po::value(&seed)->default_value(0), "seed of synthetic weights")(
      "dtype", po::value(&dtype)->default_value(dtype),
      "the evaluated model's matrices: auto (as loaded) | f32 | f16 | bf16 | q8_0 | q4_0 | q4_1 | "
      "q4_k | q5_0 | q5_1 | q2_k | q3_k | q5_k | q6_k | iq4_nl | iq4_xs | fp8 | w8a8")(
      "baseline-model", po::value(&baseline_model),
      "the baseline's model (default: --model); same vocabulary")(
      "baseline-dtype", po::value(&baseline_dtype)->default_value(baseline_dtype),
      "the baseline's matrices (auto | f32 | f16 | bf16 | a block format, as --dtype)")(
      "kv-dtype", po::value(&kv_dtype)->default_value(kv_dtype),
      "the evaluated model's KV cache (f32 | f16 | bf16 | int8 | fp8_e4m3); the baseline's is "
      "f32")("text", po::value(&text)->required(), "the evaluation text (UTF-8, at most 64 MiB)")(
      "ctx", po::value(&options.context)->default_value(options.context),
      "tokens per chunk; the second half of each chunk is scored")(
      "chunks", po::value(&options.chunks)->default_value(0), "chunks to score (0: all)")(
      "threads", po::value(&threads)->default_value(0), "forward threads (0: all cores)")(
      "out", po::value(&out), "also write the figures as JSON (infergate.quality/v1)");
  const auto parsed = parse_command_line(argc, argv, desc);
  if (!parsed) return 0;
  if (!out.empty()) check_writable(out);
  options.kv_dtype = parse_kv_dtype(kv_dtype);
  const ModelSource source = parse_model_argument(model, seed);
  ModelWeights weights = load_model(source);
  const std::vector<int32_t> tokens = tokenize_quality_text(text, source, weights.vocab);
  ModelWeights baseline =
      load_model(baseline_model.empty() ? source : parse_model_argument(baseline_model, seed));
  weights.apply_weight_dtype(dtype);
  baseline.apply_weight_dtype(baseline_dtype);
  ThreadPool pool(threads);
  const QualitySummary q = evaluate_quality(baseline, weights, tokens, options, pool);
  print_table(q, dtype + (kv_dtype == "f32" ? "" : " with " + kv_dtype + " KV"), baseline_dtype);
  if (!out.empty()) {
    write_json_atomically({{"schema", "infergate.quality/v1"},
                           {"model", model},
                           {"dtype", dtype},
                           {"kv_dtype", kv_dtype},
                           {"baseline_model", baseline_model.empty() ? model : baseline_model},
                           {"baseline_dtype", baseline_dtype},
                           {"text", text},
                           {"context", options.context},
                           {"positions", q.positions},
                           {"perplexity", q.perplexity},
                           {"baseline_perplexity", q.baseline_perplexity},
                           {"top1_agreement", q.top1_agreement},
                           {"kl_divergence", stats_json(q.kl_divergence)}},
                          out);
  }
  return 0;
}

}  // namespace infergate

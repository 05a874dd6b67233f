#include "cli/generate_command.h"

#include "kernels/cpu/cpu_features.h"
#include "kernels/cpu/kernel_choices.h"

#include <algorithm>
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>

#include "cli/command_line.h"
#include "cli/engine_options.h"
#include "common/util/clock.h"
#include "engine/core/engine.h"
#include "engine/model/model_argument.h"
#include "engine/model/model_loader.h"
#include "engine/model/model_tokenizer.h"
#include "server/openai/utf8_stream.h"

namespace infergate {

namespace po = boost::program_options;

namespace {

// The most copies of the prompt one run takes: generate is a demo and a smoke test, and each
// copy is a request the engine holds (with its KV) until the run ends, so a million of them
// grew to gigabytes without finishing. Loads beyond this are `run`'s (docs/engine.md).
constexpr int kMaxGeneratePrompts = 1024;

struct GenerateOptions {
  std::string model = "trained";
  uint64_t model_seed = 0;
  std::string prompt = "def read_config(path):";  // the trained model knows Python best
  int num_prompts = 1;
  SamplingParams sampling;
  uint64_t sample_seed = 0;
};

// Per request: first-token time and completion, to split prefill from decode throughput.
struct Timing {
  int64_t first_ns = 0, last_ns = 0;
  int tokens = 0;
};

void print_report(const std::vector<Timing>& timings, int prompt_tokens, int64_t start_ns,
                  const EngineStats& stats) {
  int64_t end = start_ns, first = 0;
  int total = 0;
  double decode_s = 0;
  int decode_tokens = 0;
  for (const Timing& t : timings) {
    end = std::max(end, t.last_ns);
    first = std::max(first, t.first_ns);
    total += t.tokens;
    decode_s = std::max(decode_s, double(t.last_ns - t.first_ns) * 1e-9);
    decode_tokens += t.tokens - 1;
  }
  const double wall = double(end - start_ns) * 1e-9;
  std::printf("\n--- %zu request(s), %d prompt tokens, %d output tokens in %.3f s\n",
              timings.size(), prompt_tokens, total, wall);
  std::printf("time to first token (slowest): %.2f ms\n", double(first - start_ns) * 1e-6);
  if (decode_tokens > 0 && decode_s > 0) {
    std::printf("decode throughput: %.1f tokens/s\n", double(decode_tokens) / decode_s);
  }
  std::printf("end-to-end output throughput: %.1f tokens/s\n", double(total) / wall);
  std::printf("memory: weights %.1f MiB, KV cache %.1f MiB, workspace %.1f MiB\n",
              double(stats.memory.weights_bytes) / 1048576.0,
              double(stats.memory.kv_cache_bytes) / 1048576.0,
              double(stats.memory.workspace_bytes) / 1048576.0);
  if (stats.speculative && stats.spec_num_draft_tokens > 0) {
    const double step_ns =
        double(stats.schedule_ns + stats.execute_ns + stats.sample_ns + stats.update_ns);
    std::printf(
        "speculative (%s): %lld of %lld draft tokens accepted (%.1f%%), %.2f tokens per "
        "verification, %.1f%% of step time drafting\n",
        stats.speculative_method.c_str(), (long long)stats.spec_num_accepted_tokens,
        (long long)stats.spec_num_draft_tokens,
        100.0 * double(stats.spec_num_accepted_tokens) / double(stats.spec_num_draft_tokens),
        1.0 + double(stats.spec_num_accepted_tokens) / double(stats.spec_num_drafts),
        100.0 * double(stats.spec_propose_ns) / (step_ns + double(stats.spec_propose_ns)));
  }
  std::printf("cpu kernels: %s (this CPU: %s)\n", isa_name(active_isa()), isa_name(detected_isa()));
  for (const CpuKernelChoice& c : cpu_kernel_choices(active_isa())) {
    std::printf("  %-12s %s\n", c.op.c_str(), c.kernel.c_str());
  }
}

// The model's own tokenizer, the one `serve` uses too; throws when it has none.
ModelTokenizer text_tokenizer(const ModelSource& source, const Vocabulary& vocab) {
  ModelTokenizer t = load_model_tokenizer(source, vocab);
  std::cerr << "tokenizer: " + t.description + "\n";  // one write: no other output inside it
  if (!t.tokenizer) {
    throw std::invalid_argument("--prompt: the model has no text tokenizer (" + t.description +
                                ")");
  }
  return t;
}

// The engine would end a longer request at max_model_len without a word; refuse it instead, as
// the server does (vLLM's "maximum context length" error).
void check_fits(int prompt_tokens, int max_tokens, int max_model_len) {
  if (max_tokens < 1) {
    throw std::invalid_argument("--max-tokens " + std::to_string(max_tokens) + ": must be >= 1");
  }
  if (int64_t(prompt_tokens) + max_tokens > max_model_len) {
    throw std::invalid_argument(
        "--max-tokens " + std::to_string(max_tokens) + ": the prompt's " +
        std::to_string(prompt_tokens) + " tokens plus the output must fit max_model_len " +
        std::to_string(max_model_len) + " (at most " +
        std::to_string(std::max(0, max_model_len - prompt_tokens)) + "; or raise --max-model-len)");
  }
}

int run(const GenerateOptions& o, const EngineConfig& config) {
  const ModelSource source = parse_model_argument(o.model, o.model_seed);
  Engine engine(config, load_model(source));
  const ModelTokenizer model_tokenizer = text_tokenizer(source, engine.weights().vocab);
  const Tokenizer& tokenizer = *model_tokenizer.tokenizer;
  const std::vector<int32_t> prompt = tokenizer.encode(o.prompt, model_tokenizer.add_bos);
  if (prompt.empty()) {
    throw std::invalid_argument("--prompt: no token of the model's vocabulary spells \"" +
                                o.prompt.substr(0, 40) + "\"");
  }
  check_fits(int(prompt.size()), o.sampling.max_tokens, engine.max_model_len());
  const int64_t start = now_ns();
  for (int i = 0; i < o.num_prompts; ++i) {
    SamplingParams p = o.sampling;
    if (p.temperature > 0) p.seed = o.sample_seed + uint64_t(i);
    engine.add_request(std::to_string(i), prompt, p);
  }
  std::vector<Timing> timings(size_t(o.num_prompts));
  std::cout << o.prompt << std::flush;
  Utf8Stream text;  // valid UTF-8, exactly as `serve` streams it
  while (engine.has_unfinished()) {
    for (const RequestOutput& out : engine.step()) {
      Timing& t = timings[std::stoul(out.id)];
      for (size_t k = 0; k < out.token_ids.size(); ++k) {
        if (t.tokens++ == 0) t.first_ns = out.token_times_ns[k];
        t.last_ns = out.token_times_ns[k];
        if (out.id == "0")
          std::cout << text.push(tokenizer.decode_token(out.token_ids[k])) << std::flush;
      }
    }
  }
  std::cout << text.finish();
  print_report(timings, int(prompt.size()) * o.num_prompts, start, engine.stats());
  return 0;
}

}  // namespace

int generate_command(int argc, char** argv) {
  GenerateOptions o;
  EngineConfig config;
  po::options_description desc("infergate generate [options]");
  desc.add_options()("help,h", "show this help")(
      "model", po::value(&o.model)->default_value(o.model), kModelArgumentHelp)(
      "model-seed", po::value(&o.model_seed)->default_value(0), "seed of synthetic weights")(
      "prompt", po::value(&o.prompt)->default_value(o.prompt), "prompt text")(
      "num-prompts", po::value(&o.num_prompts)->default_value(1),
      "copies run concurrently (1 to 1024)")(
      "max-tokens", po::value(&o.sampling.max_tokens)->default_value(64), "tokens per request")(
      "temperature", po::value(&o.sampling.temperature)->default_value(0.0f), "0: greedy")(
      "top-k", po::value(&o.sampling.top_k)->default_value(0), "0: off")(
      "top-p", po::value(&o.sampling.top_p)->default_value(1.0f), "1: off")(
      "sample-seed", po::value(&o.sample_seed)->default_value(0), "seed of request i is this + i")(
      "stop-at-eos", "end a request at the end-of-sequence token (default: ignore it)");
  add_engine_options(desc);
  const auto parsed = parse_command_line(argc, argv, desc);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  apply_engine_options(vm, config);
  o.sampling.ignore_eos = !vm.count("stop-at-eos");
  if (o.num_prompts < 1 || o.num_prompts > kMaxGeneratePrompts) {
    throw std::invalid_argument("--num-prompts " + std::to_string(o.num_prompts) +
                                ": must be in [1, " + std::to_string(kMaxGeneratePrompts) + "]");
  }
  return run(o, config);
}

}  // namespace infergate

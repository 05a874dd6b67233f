#include "cli/serve_command.h"

#include <boost/program_options.hpp>
#include <iostream>
#include <memory>

#include "bench/workload/workload_parser.h"
#include "cli/command_line.h"
#include "cli/engine_options.h"
#include "cli/model_argument.h"
#include "engine/server/http_server.h"
#include "engine/server/model_tokenizer.h"

namespace infergate {

namespace po = boost::program_options;

namespace {

// A workload file's engine target: its model and engine config, so `serve` runs exactly what
// `run` measures in-process. Flags for the same things would be ambiguous, so they are refused.
void apply_workload(const std::string& path, const po::variables_map& vm, std::string& model,
                    ModelSource& source, EngineConfig& config) {
  for (const auto& [name, value] : vm) {
    const bool engine_flag = name != "workload" && name != "host" && name != "port" &&
                             name != "api-key" && name != "http-threads" && name != "max-pending";
    if (engine_flag && !value.defaulted()) {
      throw std::invalid_argument("--" + name +
                                  " cannot be combined with --workload (the workload's target "
                                  "sets the model and engine; use --set on `infergate run`, or "
                                  "edit the file)");
    }
  }
  const Workload w = load_workload_file(path);
  if (w.target.type != "engine") {
    throw std::invalid_argument("--workload " + path + ": target.type is \"" + w.target.type +
                                "\"; serve needs an \"engine\" target");
  }
  source = w.target.model;
  config = w.target.engine;
  model = source.kind == "synthetic" ? source.preset : source.path;
}

}  // namespace

int serve_command(int argc, char** argv) {
  ServerOptions options;
  std::string model = "tiny", workload;
  uint64_t model_seed = 0;
  EngineConfig config;
  std::string kv_dtype;
  po::options_description desc("infergate serve [options]");
  desc.add_options()("help,h", "show this help")(
      "host", po::value(&options.host)->default_value(options.host), "address to listen on")(
      "port", po::value(&options.port)->default_value(options.port), "0: any free port")(
      "api-key", po::value(&options.api_key), "require Authorization: Bearer KEY")(
      "http-threads", po::value(&options.num_threads)->default_value(options.num_threads),
      "threads serving HTTP (the engine has its own)")(
      "max-pending",
      po::value(&options.max_pending_requests)->default_value(options.max_pending_requests),
      "completions in flight beyond which new ones get 429")(
      "workload", po::value(&workload),
      "take the model and engine config from this workload file's engine target")(
      "model", po::value(&model)->default_value(model),
      "preset (tiny, small, moe-tiny), .gguf file or safetensors directory")(
      "model-seed", po::value(&model_seed)->default_value(0), "seed of synthetic weights");
  add_engine_options(desc, config, kv_dtype);
  const auto parsed = parse_command_line(argc, argv, desc);
  if (!parsed) return 0;
  if (options.num_threads < 1) throw std::invalid_argument("--http-threads must be >= 1");
  if (options.max_pending_requests < 1) throw std::invalid_argument("--max-pending must be >= 1");

  ModelSource source;
  if (!workload.empty()) {
    apply_workload(workload, *parsed, model, source, config);
  } else {
    apply_engine_switches(*parsed, config, kv_dtype);
    source = parse_model_argument(model, model_seed);
  }
  EngineService service(std::make_unique<Engine>(config, load_model(source)));
  const ModelTokenizer tokenizer = load_model_tokenizer(source, service.engine().weights().vocab);
  if (!tokenizer.tokenizer) std::cerr << "serve: no text tokenizer: " << tokenizer.why_none << "\n";
  ServedModel served{model, service.engine().model_config().vocab_size,
                     service.engine().max_model_len(), tokenizer.tokenizer.get(),
                     tokenizer.add_bos};
  HttpServer server(options, service, served);
  server.stop_on_signals();
  std::cout << "listening on http://" << options.host << ":" << server.port() << std::endl;
  server.run();
  return 0;
}

}  // namespace infergate

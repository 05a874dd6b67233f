#include "cli/serve_command.h"

#include <boost/program_options.hpp>
#include <iostream>
#include <memory>
#include <optional>

#include "cli/command_line.h"
#include "cli/engine_options.h"
#include "cli/model_argument.h"
#include "engine/server/http_server.h"

namespace infergate {

namespace po = boost::program_options;

int serve_command(int argc, char** argv) {
  ServerOptions options;
  std::string model = "tiny";
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
      "model", po::value(&model)->default_value(model),
      "preset (tiny, small, moe-tiny), .gguf file or safetensors directory")(
      "model-seed", po::value(&model_seed)->default_value(0), "seed of synthetic weights");
  add_engine_options(desc, config, kv_dtype);
  const auto parsed = parse_command_line(argc, argv, desc);
  if (!parsed) return 0;
  apply_engine_switches(*parsed, config, kv_dtype);
  if (options.num_threads < 1) throw std::invalid_argument("--http-threads must be >= 1");

  const ModelSource source = parse_model_argument(model, model_seed);
  EngineService service(std::make_unique<Engine>(config, load_model(source)));
  // Text prompts only where bytes are the tokenization: the built-in synthetic models.
  std::optional<ByteTokenizer> tokenizer;
  if (source.kind == "synthetic") tokenizer.emplace(service.engine().weights().vocab);
  ServedModel served{model, service.engine().model_config().vocab_size,
                     service.engine().max_model_len(), tokenizer ? &*tokenizer : nullptr};
  HttpServer server(options, service, served);
  server.stop_on_signals();
  std::cout << "listening on http://" << options.host << ":" << server.port() << std::endl;
  server.run();
  return 0;
}

}  // namespace infergate

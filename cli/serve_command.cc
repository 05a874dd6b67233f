#include "cli/serve_command.h"

#include <algorithm>
#include <atomic>
#include <boost/program_options.hpp>
#include <cctype>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "bench/workload/workload_parser.h"
#include "cli/command_line.h"
#include "cli/engine_options.h"
#include "cli/flag_range.h"
#include "cli/http_front_flags.h"
#include "common/kv_transfer/kv_transfer_secret.h"
#include "engine/model/model_argument.h"
#include "engine/model/model_loader.h"
#include "engine/model/model_tokenizer.h"
#include "server/http_server.h"
#include "server/model_file_fault.h"

namespace infergate {

namespace po = boost::program_options;

namespace {

constexpr double kMaxTimeoutSeconds = 86400;
constexpr size_t kMaxServedNames = 32;
constexpr size_t kMaxServedNameBytes = 256;

// Flags about the HTTP side, which a workload file does not set.
const std::set<std::string> kServerFlags = {"workload",
                                            "host",
                                            "port",
                                            "api-key",
                                            "http-threads",
                                            "max-pending",
                                            "max-connections",
                                            "header-timeout-s",
                                            "body-timeout-s",
                                            "idle-timeout-s",
                                            "served-model-name",
                                            "role",
                                            "metrics-prefix",
                                            "kv-max-exported-mb",
                                            "kv-export-ttl-s",
                                            "kv-read-timeout-s",
                                            "kv-read-rate-mb-s",
                                            "kv-transfer-secret-file"};

// A workload file's engine target: its model and engine config, so `serve` runs exactly what
// `run` measures in-process. Flags for the same things would be ambiguous, so they are refused.
void apply_workload(const std::string& path, const po::variables_map& vm, std::string& model,
                    ModelSource& source, EngineConfig& config) {
  for (const auto& [name, value] : vm) {
    if (!kServerFlags.count(name) && !value.defaulted()) {
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

// A Prometheus metric name's first part: [a-zA-Z_][a-zA-Z0-9_]*, at most 64 characters.
void check_metrics_prefix(const std::string& prefix) {
  const bool ok = !prefix.empty() && prefix.size() <= 64 &&
                  !std::isdigit(static_cast<unsigned char>(prefix[0])) &&
                  std::all_of(prefix.begin(), prefix.end(), [](char c) {
                    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                  });
  if (!ok) {
    throw std::invalid_argument("--metrics-prefix \"" + prefix.substr(0, 70) +
                                "\" must be 1 to 64 letters, digits or '_', not starting with a "
                                "digit (e.g. vllm)");
  }
}

// The flags boost cannot check by type alone.
void check_server_flags(const po::variables_map& vm, const HttpFrontFlags& front,
                        const ServerOptions& o) {
  check_http_front_flags(vm, front, "serve");
  check_flag_range("max-pending", o.max_pending_requests, 1, INT32_MAX);
  if (o.role != "colocated" && o.role != "prefill" && o.role != "decode") {
    throw std::invalid_argument("--role " + o.role + " is not one of colocated, prefill, decode");
  }
  check_metrics_prefix(o.metrics_prefix);
  check_flag_range("kv-export-ttl-s", o.kv_transport.export_ttl_s, 0, kMaxTimeoutSeconds, true);
  check_flag_range("kv-read-timeout-s", o.kv_read_timeout_s, 0, kMaxTimeoutSeconds, true);
  if (o.kv_read_timeout_s >= o.kv_transport.export_ttl_s) {
    // A prefill worker must not drop an export a decode worker may still be reading.
    throw std::invalid_argument("--kv-read-timeout-s " + flag_number(o.kv_read_timeout_s) +
                                " must be below --kv-export-ttl-s " +
                                flag_number(o.kv_transport.export_ttl_s));
  }
}

// The KV transport's sizes, given in MB on the command line.
void apply_kv_flags(double max_exported_mb, double read_rate_mb_s, ServerOptions& o) {
  check_flag_range("kv-max-exported-mb", max_exported_mb, 0, 1e6, true);
  check_flag_range("kv-read-rate-mb-s", read_rate_mb_s, 0, 1e6);
  o.kv_transport.max_exported_bytes = size_t(max_exported_mb * 1e6);
  o.kv_transport.max_read_bytes_per_s = read_rate_mb_s * 1e6;
}

// The secret a prefill worker signs its KV sources with and a decode worker checks them by
// (docs/disaggregation.md, "Trust"): from --kv-transfer-secret-file or the environment.
void apply_kv_transfer_secret(const std::string& file, ServerOptions& o) {
  o.kv_transfer_secret = load_kv_transfer_secret(file);
  if (o.role != "colocated" && o.kv_transfer_secret.empty()) {
    std::cerr << "infergate serve: no KV transfer secret (--kv-transfer-secret-file or " +
                     std::string(kKvTransferSecretVariable) + "): this " + o.role + " worker " +
                     (o.role == "prefill" ? "exports no KV" : "computes every prompt itself") +
                     " (docs/disaggregation.md, \"Trust\")\n";
  }
}

// --served-model-name NAME...: the names the API answers to, the first reported (as vLLM's).
std::vector<std::string> served_names(const po::variables_map& vm) {
  if (!vm.count("served-model-name")) return {};
  const auto names = vm["served-model-name"].as<std::vector<std::string>>();
  if (names.empty() || names.size() > kMaxServedNames) {
    throw std::invalid_argument("--served-model-name takes 1 to " +
                                std::to_string(kMaxServedNames) + " names, got " +
                                std::to_string(names.size()));
  }
  for (const std::string& n : names) {
    if (n.empty() || n.size() > kMaxServedNameBytes) {
      throw std::invalid_argument("--served-model-name: each name must be 1 to " +
                                  std::to_string(kMaxServedNameBytes) + " bytes, got \"" +
                                  n.substr(0, 40) + (n.size() > 40 ? "...\"" : "\""));
    }
  }
  return names;
}

}  // namespace

int serve_command(int argc, char** argv) {
  ServerOptions options;
  std::string model = "trained", workload;
  HttpFrontFlags front{options.host,
                       options.port,
                       "",
                       options.num_threads,
                       options.max_connections,
                       options.header_timeout_s,
                       options.body_timeout_s,
                       options.idle_timeout_s};
  uint64_t model_seed = 0;
  EngineConfig config;
  double kv_max_exported_mb = 1024, kv_read_rate_mb_s = 0;
  std::string kv_transfer_secret_file;
  po::options_description desc("infergate serve [options]");
  desc.add_options()("help,h", "show this help");
  add_http_front_options(desc, front);
  desc.add_options()(
      "served-model-name", po::value<std::vector<std::string>>()->multitoken(),
      "NAME...: the model names the API answers to; the first is reported (default: --model)")(
      "max-pending",
      po::value(&options.max_pending_requests)->default_value(options.max_pending_requests),
      "completions in flight beyond which new ones get 429")(
      "workload", po::value(&workload),
      "take the model and engine config from this workload file's engine target")(
      "model", po::value(&model)->default_value(model), kModelArgumentHelp)(
      "model-seed", po::value(&model_seed)->default_value(0), "seed of synthetic weights")(
      "role", po::value(&options.role)->default_value(options.role),
      "colocated, prefill or decode: a prefill worker exports prompt KV, a decode worker reads "
      "it (docs/disaggregation.md)")(
      "metrics-prefix", po::value(&options.metrics_prefix)->default_value(options.metrics_prefix),
      "GET /metrics names as PREFIX:name, e.g. vllm for vLLM's names (docs/server.md)")(
      "kv-max-exported-mb", po::value(&kv_max_exported_mb)->default_value(kv_max_exported_mb),
      "prefill: KV held for decode workers; beyond, requests get no export")(
      "kv-export-ttl-s",
      po::value(&options.kv_transport.export_ttl_s)
          ->default_value(options.kv_transport.export_ttl_s),
      "prefill: an export no decode worker released is dropped after this")(
      "kv-read-timeout-s",
      po::value(&options.kv_read_timeout_s)->default_value(options.kv_read_timeout_s),
      "decode: a KV read taking longer falls back to computing the prompt here")(
      "kv-read-rate-mb-s", po::value(&kv_read_rate_mb_s)->default_value(kv_read_rate_mb_s),
      "decode: cap KV reads at this many MB/s to stand for a slower link (0: no cap)")(
      "kv-transfer-secret-file", po::value(&kv_transfer_secret_file),
      "prefill and decode: the secret shared with the other workers (16 to 4096 bytes) that "
      "KV sources are signed and checked with; default: $INFERGATE_KV_TRANSFER_SECRET "
      "(docs/disaggregation.md)");
  add_engine_options(desc);
  const auto parsed = parse_command_line(argc, argv, desc);
  if (!parsed) return 0;
  options.host = front.host;
  options.api_key = front.api_key;
  options.num_threads = front.http_threads;
  options.max_connections = front.max_connections;
  options.header_timeout_s = front.header_timeout_s;
  options.body_timeout_s = front.body_timeout_s;
  options.idle_timeout_s = front.idle_timeout_s;
  check_server_flags(*parsed, front, options);
  apply_kv_flags(kv_max_exported_mb, kv_read_rate_mb_s, options);
  apply_kv_transfer_secret(kv_transfer_secret_file, options);
  options.port = static_cast<uint16_t>(front.port);
  std::vector<std::string> names = served_names(*parsed);

  ModelSource source;
  if (!workload.empty()) {
    apply_workload(workload, *parsed, model, source, config);
  } else {
    apply_engine_options(*parsed, config);
    source = parse_model_argument(model, model_seed);
  }
  EngineService service(std::make_unique<Engine>(config, load_model(source)));
  if (source.kind != "synthetic") exit_clearly_on_model_file_fault(source.path);
  const ModelTokenizer tokenizer = load_model_tokenizer(source, service.engine().weights().vocab);
  std::cerr << "tokenizer: " + tokenizer.description +
                   "\nchat template: " + tokenizer.chat_description + "\n";  // one write
  if (names.empty()) names.push_back(model);
  ServedModel served{names.front(),
                     service.engine().model_config().vocab_size,
                     service.engine().max_model_len(),
                     tokenizer.tokenizer.get(),
                     tokenizer.add_bos,
                     {names.begin() + 1, names.end()},
                     &tokenizer.chat};
  HttpServer server(options, service, served);
  server.stop_on_signals();
  std::atomic<bool> engine_failed = false;
  service.set_failure_handler([&](const std::string& cause) {
    std::cerr << "infergate serve: the engine failed and cannot go on: " + cause + "\n";
    engine_failed = true;
    server.stop();
  });
  std::cout << "listening on http://" << options.host << ":" << server.port() << std::endl;
  server.run();
  return engine_failed ? kExitEngineFailed : 0;
}

}  // namespace infergate

#include "cli/router_command.h"

#include <unistd.h>

#include <boost/program_options.hpp>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/workload/workload_parser.h"
#include "cli/engine_options.h"
#include "cli/flag_range.h"
#include "cli/http_front_flags.h"
#include "common/kv_transfer/kv_transfer_secret.h"
#include "engine/core/kv_pool_plan.h"
#include "engine/model/model_argument.h"
#include "engine/model/model_config.h"
#include "router/gpu_assignment.h"
#include "router/replica_budget.h"
#include "router/replica_supervisor.h"
#include "router/router_server.h"

namespace infergate {

namespace po = boost::program_options;

namespace {

constexpr int kMaxReplicas = 1024;
constexpr double kMaxSeconds = 86400;

// `value` in (0, kMaxSeconds]: a timeout of 0 would fail everything at once.
void check_seconds(const std::string& flag, double value) {
  check_flag_range(flag, value, 0, kMaxSeconds, true);
}

// The prefix-aware policy's settings (replica_chooser.h), by the flags that set them.
void check_prefix_settings(const PrefixAwareSettings& p) {
  check_flag_range("cache-threshold", p.cache_threshold, 0.0, 1.0);
  check_flag_range("balance-abs", p.balance_abs, 0, 1 << 20);
  check_flag_range("balance-rel", p.balance_rel, 1.0, 1e6);
  check_flag_range("prefix-capacity-blocks", p.capacity_blocks, 1, size_t(1) << 24);
}

void check_options(const RouterOptions& o) {
  check_flag_range("max-outstanding-per-replica", o.replicas.max_outstanding, 1, 1 << 20);
  check_flag_range("max-queued", o.max_queued, 0, 1 << 20);
  check_flag_range("max-attempts", o.max_attempts, 1, 16);
  check_flag_range("breaker-failures", o.replicas.breaker_failures, 1, 1000);
  check_flag_range("prefix-chunk-bytes", o.prefix_chunk_bytes, 1, 1 << 20);
  check_flag_range("token-block-size", o.token_block_size, 1, 1 << 16);
  check_prefix_settings(o.replicas.prefix);
  for (const auto& [flag, value] : {std::pair{"queue-timeout-s", o.queue_timeout_s},
                                    {"connect-timeout-s", o.connect_timeout_s},
                                    {"first-byte-timeout-s", o.first_byte_timeout_s},
                                    {"stall-timeout-s", o.stall_timeout_s},
                                    {"health-interval-s", o.health_interval_s},
                                    {"health-timeout-s", o.health_timeout_s}}) {
    check_seconds(flag, value);
  }
}

void check_supervisor(const SupervisorSettings& s) {
  check_seconds("replica-start-timeout-s", s.start_timeout_s);
  check_flag_range("restart-delay-s", s.restart_delay_s, 0.0, kMaxSeconds);
}

// An --upstream URL: the router speaks plain HTTP to its replicas (https is a workload's openai
// target's, for endpoints behind TLS gateways).
HttpUrl plain_upstream_url(const std::string& text) {
  HttpUrl url = parse_http_url(text);
  if (url.tls) {
    throw std::invalid_argument("\"" + text +
                                "\": https is not supported for a router's upstreams (the router "
                                "speaks plain HTTP to its replicas)");
  }
  return url;
}

// How many replicas, from where: checked before the either/or, so that `--replicas 0` is
// named as out of range rather than taken for "no --replicas".
void check_replica_counts(const po::variables_map& vm, int replicas, int prefill_replicas,
                          size_t upstreams, size_t prefill_upstreams) {
  if (vm.count("replicas")) check_flag_range("replicas", replicas, 1, kMaxReplicas);
  if (vm.count("prefill-replicas")) {
    check_flag_range("prefill-replicas", prefill_replicas, 1, kMaxReplicas);
  }
  check_flag_range("upstream", upstreams, 0, kMaxReplicas);
  check_flag_range("prefill-upstream", prefill_upstreams, 0, kMaxReplicas);
}

std::string self_executable() {
  std::error_code ec;
  const auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::runtime_error("cannot find the infergate executable: " + ec.message());
  return path.string();
}

// The router's flags before they were renamed (`--backend URL` clashed with serve's `--backend
// cpu|cuda`, which now passes to replicas): refused, naming the new spelling.
void refuse_old_spellings(const std::vector<std::string>& unrecognized) {
  for (size_t i = 0; i < unrecognized.size(); ++i) {
    const std::string& a = unrecognized[i];
    for (const auto& [old, now] : {std::pair{"--prefill-backend", "--prefill-upstream"},
                                   {"--backend-api-key", "--upstream-api-key"}}) {
      if (a == old || a.starts_with(std::string(old) + "=")) {
        throw std::invalid_argument(std::string(old) + " is now " + now);
      }
    }
    const bool backend = a == "--backend" || a.starts_with("--backend=");
    const std::string value = a.starts_with("--backend=")   ? a.substr(10)
                              : i + 1 < unrecognized.size() ? unrecognized[i + 1]
                                                            : "";
    if (backend && value.find("://") != std::string::npos) {
      throw std::invalid_argument("--backend " + value +
                                  ": the router's servers are now --upstream URL...; --backend "
                                  "cpu|cuda is the replicas' engine backend (with --replicas)");
    }
  }
}

// The serve flags for replicas the router starts; it sets --host, --port and --role itself.
std::vector<std::string> serve_args(const std::vector<std::string>& unrecognized) {
  for (const std::string& a : unrecognized) {
    if (a == "--host" || a == "--port" || a.starts_with("--host=") || a.starts_with("--port=")) {
      throw std::invalid_argument(a +
                                  " is the router's own; its replicas listen on loopback "
                                  "ports it picks");
    }
    if (a == "--role" || a.starts_with("--role=")) {
      throw std::invalid_argument(a +
                                  " is the router's to set: --prefill-replicas N makes N prefill "
                                  "workers and --replicas M decode workers");
    }
  }
  return unrecognized;
}

// What a replica holds beyond its weights and KV pool: the runtime, HTTP buffers and the
// activations of a batch. A round figure: the estimate bounds replicas, it does not plan them.
constexpr int64_t kReplicaProcessBytes = int64_t(64) << 20;

int64_t files_bytes(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_directory(path, ec)) {
    const auto size = std::filesystem::file_size(path, ec);
    return ec ? 0 : int64_t(size);
  }
  int64_t total = 0;
  for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
    if (entry.is_regular_file(ec)) total += int64_t(entry.file_size(ec));
  }
  return total;
}

// One replica's memory, as its serve flags would build it (serve_command.cc): the weights (a
// preset's parameters at 4 bytes, or the model files' size) and the KV pool (plan_kv_pool's
// blocks when --num-kv-blocks and the shape are known, else --kv-cache-bytes).
ReplicaFootprint replica_footprint(const std::vector<std::string>& serve_flags) {
  po::options_description desc;
  std::string model = "trained", workload;
  uint64_t seed = 0;
  desc.add_options()("model", po::value(&model))("model-seed", po::value(&seed))(
      "workload", po::value(&workload));
  add_engine_options(desc);
  po::variables_map vm;
  po::store(po::command_line_parser(serve_flags).options(desc).allow_unregistered().run(), vm);
  po::notify(vm);
  EngineConfig config;
  ModelSource source;
  if (!workload.empty()) {
    const Workload w = load_workload_file(workload);
    config = w.target.engine;
    source = w.target.model;
  } else {
    apply_engine_options(vm, config);
    source = parse_model_argument(model, seed);
  }
  ReplicaFootprint f;
  f.process = kReplicaProcessBytes;
  f.kv_pool = config.kv_cache_bytes;
  if (source.kind == "synthetic") {
    const ModelConfig shape = preset_config(source.preset);
    f.weights = shape.num_parameters() * 4;
    const int blocks = plan_kv_pool(config, shape, 0).num_blocks;
    f.kv_pool = int64_t(kv_pool_bytes(shape, config.block_size, config.kv_cache_dtype, blocks));
  } else {
    f.weights = files_bytes(source.path);
  }
  return f;
}

// Bounds the replicas by the machine before any starts (router/replica_budget.h). A model or
// engine flag serve would refuse is left for the replica to name.
void check_machine_fits(int replicas, int prefill_replicas,
                        const std::vector<std::string>& serve_flags) {
  ReplicaFootprint each;
  try {
    each = replica_footprint(serve_flags);
  } catch (const std::exception&) {
    each = {};  // the replica will say what is wrong, naming its flag
  }
  const std::string flag_text =
      "--replicas " + std::to_string(replicas) +
      (prefill_replicas > 0 ? " with --prefill-replicas " + std::to_string(prefill_replicas) : "");
  check_replica_budget(flag_text, replicas + prefill_replicas, each, this_machine_budget());
}

std::vector<std::string> with_role(std::vector<std::string> args, const char* role) {
  args.insert(args.end(), {"--role", role});
  return args;
}

// The workers the router starts share one KV transfer secret (docs/disaggregation.md, "Trust"):
// the environment's, or a fresh random one put there before any thread starts, which the
// workers inherit (never argv, which every local user can read).
void share_kv_transfer_secret() {
  if (std::getenv(kKvTransferSecretVariable) != nullptr) return;
  if (::setenv(kKvTransferSecretVariable, random_kv_transfer_secret().c_str(), 1) != 0) {
    throw std::runtime_error(std::string("cannot set ") + kKvTransferSecretVariable);
  }
}

}  // namespace

int router_command(int argc, char** argv) {
  RouterOptions o;
  HttpFrontFlags front{o.listen.host,
                       o.listen.port,
                       "",
                       o.listen.num_threads,
                       o.listen.max_connections,
                       o.header_timeout_s,
                       o.body_timeout_s,
                       o.idle_timeout_s};
  int replicas = 0;
  int prefill_replicas = 0;
  std::vector<std::string> upstreams, prefill_upstreams;
  std::string policy = to_string(o.replicas.policy);
  SupervisorSettings supervisor;
  po::options_description desc(
      "infergate router (--replicas N [serve flags] | --upstream URL...) [options]");
  desc.add_options()("help,h", "show this help")(
      "replicas", po::value(&replicas),
      "start and supervise N `infergate serve` replicas on loopback; every flag the router does "
      "not know (--model, engine flags) goes to them")(
      "upstream", po::value(&upstreams)->multitoken(),
      "URL...: front OpenAI-compatible servers started elsewhere (http://HOST:PORT)")(
      "prefill-replicas", po::value(&prefill_replicas),
      "disaggregate: start N prefill workers besides the --replicas decode workers "
      "(docs/disaggregation.md)")(
      "prefill-upstream", po::value(&prefill_upstreams)->multitoken(),
      "URL...: disaggregate: prefill workers started elsewhere (`serve --role prefill`); "
      "--upstream then names decode workers (`serve --role decode`)")(
      "policy", po::value(&policy)->default_value(policy),
      "round-robin, least-outstanding or prefix-aware")(
      "upstream-api-key", po::value(&o.upstream_api_key),
      "send Authorization: Bearer KEY to replicas")(
      "max-outstanding-per-replica",
      po::value(&o.replicas.max_outstanding)->default_value(o.replicas.max_outstanding),
      "requests in flight at one replica beyond which it gets no more")(
      "max-queued", po::value(&o.max_queued)->default_value(o.max_queued),
      "requests that may wait while every replica is full; beyond, 429")(
      "queue-timeout-s", po::value(&o.queue_timeout_s)->default_value(o.queue_timeout_s),
      "the longest a request waits for room before 429")(
      "max-attempts", po::value(&o.max_attempts)->default_value(o.max_attempts),
      "replicas tried for a request that has not started answering")(
      "connect-timeout-s", po::value(&o.connect_timeout_s)->default_value(o.connect_timeout_s),
      "to connect to a replica")(
      "first-byte-timeout-s",
      po::value(&o.first_byte_timeout_s)->default_value(o.first_byte_timeout_s),
      "a replica's answer must start within this, else it is tried elsewhere")(
      "stall-timeout-s", po::value(&o.stall_timeout_s)->default_value(o.stall_timeout_s),
      "the longest gap within a replica's answer")(
      "health-interval-s", po::value(&o.health_interval_s)->default_value(o.health_interval_s),
      "how often each replica's /health is asked")(
      "health-timeout-s", po::value(&o.health_timeout_s)->default_value(o.health_timeout_s),
      "a health check's answer must come within this")(
      "breaker-failures",
      po::value(&o.replicas.breaker_failures)->default_value(o.replicas.breaker_failures),
      "consecutive failed requests that take a replica out until its health check passes")(
      "cache-threshold",
      po::value(&o.replicas.prefix.cache_threshold)
          ->default_value(o.replicas.prefix.cache_threshold),
      "prefix-aware: the share of a prompt's blocks a replica must hold to be followed")(
      "balance-abs",
      po::value(&o.replicas.prefix.balance_abs)->default_value(o.replicas.prefix.balance_abs),
      "prefix-aware: in-flight difference beyond which load wins")(
      "balance-rel",
      po::value(&o.replicas.prefix.balance_rel)->default_value(o.replicas.prefix.balance_rel),
      "prefix-aware: in-flight ratio beyond which load wins")(
      "prefix-capacity-blocks",
      po::value(&o.replicas.prefix.capacity_blocks)
          ->default_value(o.replicas.prefix.capacity_blocks),
      "prefix-aware: blocks the router remembers per replica")(
      "prefix-chunk-bytes", po::value(&o.prefix_chunk_bytes)->default_value(o.prefix_chunk_bytes),
      "text prompts are hashed in chunks of this many bytes")(
      "token-block-size", po::value(&o.token_block_size)->default_value(o.token_block_size),
      "token prompts are hashed in blocks of this many tokens (the replicas' KV block size)")(
      "seed", po::value(&o.replicas.seed)->default_value(o.replicas.seed),
      "seed of least-outstanding's random draws")(
      "replica-start-timeout-s",
      po::value(&supervisor.start_timeout_s)->default_value(supervisor.start_timeout_s),
      "--replicas: each must listen within this")(
      "restart-delay-s",
      po::value(&supervisor.restart_delay_s)->default_value(supervisor.restart_delay_s),
      "--replicas: a dead replica is restarted after this")(
      "pin-replicas", po::bool_switch(&supervisor.pin_cpus),
      "--replicas: replica i runs on CPU i (mod the CPUs the router may use)")(
      "gpus-per-replica", po::value(&supervisor.gpus_per_replica),
      "--replicas: replica i sees N GPUs through CUDA_VISIBLE_DEVICES, taken round-robin from "
      "the router's own CUDA_VISIBLE_DEVICES (else every /dev/nvidiaN)");
  add_http_front_options(desc, front);
  const po::parsed_options parsed =
      po::command_line_parser(argc, argv).options(desc).allow_unregistered().run();
  po::variables_map vm;
  po::store(parsed, vm);
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return 0;
  }
  po::notify(vm);
  const std::vector<std::string> unrecognized =
      po::collect_unrecognized(parsed.options, po::include_positional);
  // Every flag is checked here, before any replica starts.
  refuse_old_spellings(unrecognized);
  check_replica_counts(vm, replicas, prefill_replicas, upstreams.size(), prefill_upstreams.size());
  if (prefill_replicas > 0 && replicas == 0) {
    throw std::invalid_argument("--prefill-replicas needs --replicas (the decode workers)");
  }
  if (!prefill_upstreams.empty() && upstreams.empty()) {
    throw std::invalid_argument("--prefill-upstream needs --upstream (the decode workers)");
  }
  if ((replicas > 0) == !upstreams.empty()) {
    throw std::invalid_argument("give either --replicas N or --upstream URL... (not both)");
  }
  if (vm.count("gpus-per-replica")) {
    if (replicas == 0) throw std::invalid_argument("--gpus-per-replica needs --replicas");
    supervisor.gpus = visible_gpus();
    replica_gpus(supervisor.gpus, supervisor.gpus_per_replica, 0);  // names a bad N now
  }
  if (replicas == 0 && !unrecognized.empty()) {
    throw std::invalid_argument("unknown option " + unrecognized.front() +
                                " (serve flags go to replicas the router starts, with --replicas)");
  }
  check_http_front_flags(vm, front, "route");
  check_options(o);
  check_supervisor(supervisor);
  o.listen = {front.host, uint16_t(front.port), front.http_threads, front.max_connections,
              o.listen.name};
  o.api_key = front.api_key;
  o.header_timeout_s = front.header_timeout_s;
  o.body_timeout_s = front.body_timeout_s;
  o.idle_timeout_s = front.idle_timeout_s;
  o.replicas.policy = parse_routing_policy(policy);
  const std::vector<std::string> args = serve_args(unrecognized);
  if (replicas > 0) check_machine_fits(replicas, prefill_replicas, args);

  if (prefill_replicas > 0) share_kv_transfer_secret();
  std::unique_ptr<ReplicaSupervisor> children, prefill_children;
  std::vector<HttpUrl> urls, prefill_urls;
  if (replicas > 0) {
    supervisor.program = self_executable();
    if (prefill_replicas > 0) {  // prefill workers take the first CPUs when pinned
      SupervisorSettings prefill = supervisor;
      prefill.serve_args = with_role(args, "prefill");
      prefill.replicas = prefill_replicas;
      prefill_children = std::make_unique<ReplicaSupervisor>(prefill);
      prefill_urls = prefill_children->urls();
      supervisor.first_replica = prefill_replicas;
    }
    supervisor.serve_args = prefill_replicas > 0 ? with_role(args, "decode") : args;
    supervisor.replicas = replicas;
    children = std::make_unique<ReplicaSupervisor>(supervisor);
    urls = children->urls();
  } else {
    for (const std::string& u : upstreams) urls.push_back(plain_upstream_url(u));
    for (const std::string& u : prefill_upstreams) prefill_urls.push_back(plain_upstream_url(u));
  }
  ReplicaSet set(urls, o.replicas);
  std::unique_ptr<ReplicaSet> prefill_set;
  if (!prefill_urls.empty()) prefill_set = std::make_unique<ReplicaSet>(prefill_urls, o.replicas);
  if (children) children->watch(set);
  if (prefill_children) prefill_children->watch(*prefill_set);
  RouterServer server(o, set, prefill_set.get());
  server.stop_on_signals();
  std::cout << "listening on http://" << o.listen.host << ":" << server.port() << std::endl;
  server.run();
  if (prefill_children) prefill_children->stop();
  if (children) children->stop();
  return 0;
}

}  // namespace infergate

#include "bench/workload/workload_parser.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "bench/workload/capacity_search_reader.h"
#include "bench/workload/engine_config_json.h"
#include "bench/workload/json_object_reader.h"
#include "bench/workload/overrides.h"
#include "bench/workload/request_limits.h"
#include "bench/workload/strict_json.h"
#include "bench/workload/target_headers.h"
#include "bench/workload/workload_error.h"
#include "bench/workload/workload_hash.h"
#include "bench/workload/workload_json.h"
#include "bench/workload/workload_limits.h"
#include "common/http/http_url.h"
#include "common/io/input_file.h"
#include "common/io/json_excerpt.h"
#include "engine/model/model_config.h"

namespace infergate {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kSchema = "infergate.workload/v1";
const std::string kOneOfCount = "exactly one of num_requests, duration_s must be > 0";

std::vector<std::string> preset_list() {
  std::vector<std::string> names;
  std::stringstream list(preset_names());
  for (std::string name; std::getline(list >> std::ws, name, ',');) names.push_back(name);
  return names;
}

// A string the workload gave (a path, a choice) as JSON for messages: long enough for any real
// path, cut before a megabyte of it is echoed.
std::string json_quoted(const std::string& text) { return json_excerpt(json(text), 512); }

// "1000000", "86400", "0.001": limits as the messages state them.
std::string number_text(double x) {
  if (x == std::floor(x) && std::fabs(x) < 1e15) return std::to_string(int64_t(x));
  std::ostringstream out;
  out << x;
  return out.str();
}
std::string number_text(int64_t x) { return std::to_string(x); }

// ---- paths ----------------------------------------------------------------------------------

std::string resolve_path(const std::string& path, const std::string& base_dir) {
  fs::path p(path);
  if (!base_dir.empty() && p.is_relative()) p = fs::path(base_dir) / p;
  return p.lexically_normal().string();
}

// A non-empty path at `key`, resolved against `base_dir`, that must exist as a file (or a
// directory): a missing dataset or model is found before anything runs.
std::string read_existing_path(JsonObjectReader& r, const std::string& key,
                               const std::string& base_dir, bool directory) {
  const std::string raw = r.get_string(key, "");
  r.check(!raw.empty(), key, "must be a non-empty path");
  const std::string path = resolve_path(raw, base_dir);
  std::error_code ec;
  const bool ok = directory ? fs::is_directory(path, ec) : fs::is_regular_file(path, ec);
  if (!ok) {
    const std::string kind = directory ? "an existing directory" : "an existing file";
    throw WorkloadError(r.file(), r.path_of(key), json_quoted(path), kind,
                        json_quoted(path) + " is not " + kind);
  }
  return path;
}

// ---- target ---------------------------------------------------------------------------------

ModelSource read_model(JsonObjectReader& target, const std::string& base_dir) {
  const json* value = target.find("model");
  if (value == nullptr) return ModelSource{};
  JsonObjectReader r(*value, target.path_of("model"), target.file());
  r.allow({"preset", "gguf", "safetensors", "seed"});
  r.finish();
  std::vector<std::string> kinds;
  for (const char* kind : {"preset", "gguf", "safetensors"}) {
    if (r.has(kind)) kinds.push_back(kind);
  }
  if (kinds.size() != 1) {
    const std::string rule = "exactly one of preset, gguf, safetensors";
    throw WorkloadError(r.file(), r.path(), json_text(*value), rule,
                        json_text(*value) + " needs " + rule);
  }
  ModelSource m;
  if (kinds[0] == "preset") {
    m.kind = "synthetic";
    m.preset = r.get_choice("preset", m.preset, preset_list());
    m.seed = r.get_uint64("seed", m.seed);
    return m;
  }
  if (r.has("seed")) {
    throw WorkloadError(r.file(), r.path_of("seed"), json_text(value->at("seed")), "preset",
                        "not used with " + kinds[0] + " (only synthetic presets have a seed)");
  }
  m.kind = kinds[0];
  m.path = read_existing_path(r, m.kind, base_dir, m.kind == "safetensors");
  return m;
}

void read_engine_target(JsonObjectReader& r, TargetSpec& t, const std::string& base_dir) {
  r.allow({"model", "engine"});
  r.set_context("with type \"engine\"",
                {"token_delay_us", "url", "api", "timeout_s", "vocab_size", "router",
                 "server_metrics", "tokenizer", "headers", "tls", "reasoning_span"});
  r.finish();
  t.model = read_model(r, base_dir);
  JsonObjectReader engine = r.child("engine");
  t.engine = read_engine_config(engine);
}

void read_echo_target(JsonObjectReader& r, TargetSpec& t) {
  t.echo_token_delay_us = r.get_double("token_delay_us", t.echo_token_delay_us);
  r.set_context("with type \"echo\"",
                {"model", "engine", "url", "api", "timeout_s", "vocab_size", "router",
                 "server_metrics", "tokenizer", "headers", "tls", "reasoning_span"});
  r.finish();
  r.check(t.echo_token_delay_us >= 0 && t.echo_token_delay_us <= kMaxTokenDelayUs, "token_delay_us",
          "must be in [0, " + number_text(kMaxTokenDelayUs) + "] (microseconds per token)");
}

// An openai target's server_metrics (docs/workload-schema.md, "The server's side").
void read_server_metrics(JsonObjectReader& r, ServerMetricsSpec& m) {
  m.scrape = r.get_bool("scrape", m.scrape);
  m.path = r.get_string("path", m.path);
  m.interval_ms = r.get_int("interval_ms", m.interval_ms);
  m.dialect =
      r.get_choice("dialect", m.dialect, {"auto", "infergate", "vllm", "sglang", "llamacpp"});
  m.pid = r.get_int("pid", m.pid);
  r.finish();
  const bool printable = std::all_of(m.path.begin(), m.path.end(),
                                     [](char c) { return c > ' ' && c < 127 && c != '#'; });
  r.check(m.path.size() >= 2 && m.path.size() <= kMaxServerMetricsPathBytes && m.path[0] == '/' &&
              printable,
          "path",
          "must be a path such as \"/metrics\": \"/\" then up to " +
              std::to_string(kMaxServerMetricsPathBytes - 1) + " printable characters, no spaces");
  r.check(m.interval_ms >= kMinScrapeIntervalMs && m.interval_ms <= kMaxScrapeIntervalMs,
          "interval_ms",
          "must be in [" + std::to_string(kMinScrapeIntervalMs) + ", " +
              std::to_string(kMaxScrapeIntervalMs) + "] (milliseconds)");
  r.check(m.pid >= 0 && m.pid <= kMaxPid, "pid",
          "must be in [0, " + std::to_string(kMaxPid) +
              "] (0: the process listening on a loopback URL's port)");
}

// target.tokenizer: a GGUF file, or a directory holding tokenizer.json (a Hugging Face model's).
ModelSource read_target_tokenizer(JsonObjectReader& r, const std::string& base_dir) {
  const std::string raw = r.get_string("tokenizer", "");
  const std::string path = resolve_path(raw, base_dir);
  std::error_code ec;
  ModelSource m;
  m.path = path;
  if (fs::is_directory(path, ec) && fs::is_regular_file(fs::path(path) / "tokenizer.json", ec)) {
    m.kind = "safetensors";
    return m;
  }
  if (fs::is_regular_file(path, ec) && fs::path(path).extension() == ".gguf") {
    m.kind = "gguf";
    return m;
  }
  const std::string rule = "a .gguf file or a directory holding tokenizer.json";
  throw WorkloadError(r.file(), r.path_of("tokenizer"), json_quoted(raw), rule,
                      json_quoted(path) + " is not " + rule);
}

// target.reasoning_span: the tags a reasoning model's thinking sits between in its answer.
void read_reasoning_span(JsonObjectReader& r, TargetSpec& t) {
  t.think_open = r.get_string("open", t.think_open);
  t.think_close = r.get_string("close", t.think_close);
  r.finish();
  const std::string rule = "1 to " + std::to_string(kMaxThinkTagBytes) + " bytes";
  r.check(t.think_open.size() <= kMaxThinkTagBytes, "open", "must be at most " + rule);
  r.check(!t.think_close.empty() && t.think_close.size() <= kMaxThinkTagBytes, "close",
          "must be " + rule + ", e.g. \"</think>\"");
}

// target.tls of an https:// target: whether to verify the server, and the CAs to trust.
void read_target_tls(JsonObjectReader& r, TargetSpec& t, const std::string& base_dir) {
  t.tls_verify = r.get_bool("verify", t.tls_verify);
  if (r.has("ca_file")) t.tls_ca_file = read_existing_path(r, "ca_file", base_dir, false);
  r.finish();
  r.check(t.tls_verify || t.tls_ca_file.empty(), "ca_file",
          "is not used with \"verify\": false (nothing is verified)");
}

void read_openai_target(JsonObjectReader& r, TargetSpec& t, const std::string& base_dir) {
  t.url = r.get_string("url", t.url);
  if (r.has("tokenizer")) t.tokenizer = read_target_tokenizer(r, base_dir);
  t.model_name = r.get_string("model", t.model_name);
  t.api = r.get_choice("api", t.api, {"completions", "chat"});
  t.timeout_s = r.get_double("timeout_s", t.timeout_s);
  t.vocab_size = r.get_int("vocab_size", t.vocab_size);
  JsonObjectReader server_metrics = r.child("server_metrics");
  read_server_metrics(server_metrics, t.server_metrics);
  t.headers = read_target_headers(r);
  if (r.has("reasoning_span")) {
    JsonObjectReader span = r.child("reasoning_span");
    read_reasoning_span(span, t);
  }
  r.set_context("with type \"openai\"", {"engine", "token_delay_us", "router"});
  r.check(!t.url.empty(), "url", "must be a non-empty URL, e.g. http://localhost:8000");
  bool https = false;
  try {
    https = parse_http_url(t.url).tls;
  } catch (const std::invalid_argument& e) {
    throw WorkloadError(r.file(), r.path_of("url"), json_quoted(t.url),
                        "http[s]://HOST[:PORT][/PREFIX]", e.what());
  }
  if (r.has("tls")) {
    r.check(https, "tls", "is for an https:// url");
    JsonObjectReader tls = r.child("tls");
    read_target_tls(tls, t, base_dir);
  }
  r.finish();
  r.check(t.timeout_s > 0 && t.timeout_s <= kMaxTimeoutS, "timeout_s",
          "must be > 0 and <= " + number_text(kMaxTimeoutS) + " (seconds)");
  r.check(!r.has("vocab_size") || t.vocab_size >= 1, "vocab_size",
          "must be >= 1 (leave it out to ask the server)");
}

// The workers behind the router: a router target's, or a simulated target's (simulated).
void read_router_workers(JsonObjectReader& router, TargetSpec& t) {
  RouterTargetSpec& s = t.router;
  s.replicas = router.get_int("replicas", s.replicas);
  s.policy =
      router.get_choice("policy", s.policy, {"round-robin", "least-outstanding", "prefix-aware"});
  s.restart_delay_s = router.get_double("restart_delay_s", s.restart_delay_s);
  s.pin_replicas = router.get_bool("pin_replicas", s.pin_replicas);
  s.prefill_replicas = router.get_int("prefill_replicas", s.prefill_replicas);
  s.kv_read_rate_mb_s = router.get_double("kv_read_rate_mb_s", s.kv_read_rate_mb_s);
  router.finish();
  router.check(s.replicas >= 1 && s.replicas <= kMaxRouterReplicas, "replicas",
               "must be in [1, " + std::to_string(kMaxRouterReplicas) + "]");
  router.check(s.restart_delay_s > 0 && s.restart_delay_s <= kMaxTimeoutS, "restart_delay_s",
               "must be > 0 and <= " + number_text(kMaxTimeoutS) + " (seconds)");
  router.check(s.prefill_replicas >= 0 && s.prefill_replicas < s.replicas, "prefill_replicas",
               "must be in [0, router.replicas - 1 = " + std::to_string(s.replicas - 1) +
                   "] (0: colocated; the other workers decode)");
  router.check(s.kv_read_rate_mb_s >= 0 && s.kv_read_rate_mb_s <= kMaxKvReadRateMbS,
               "kv_read_rate_mb_s",
               "must be >= 0 and <= " + number_text(kMaxKvReadRateMbS) + " (MB/s; 0: no cap)");
}

// `infergate router --replicas N` over engines of the target's model and engine config.
void read_router_target(JsonObjectReader& r, TargetSpec& t, const std::string& base_dir) {
  r.allow({"model", "engine"});
  t.api = r.get_choice("api", t.api, {"completions", "chat"});
  t.timeout_s = r.get_double("timeout_s", t.timeout_s);
  JsonObjectReader router = r.child("router");
  read_router_workers(router, t);
  r.set_context("with type \"router\"", {"token_delay_us", "url", "vocab_size", "server_metrics",
                                         "tokenizer", "headers", "tls", "reasoning_span"});
  r.finish();
  r.check(t.timeout_s > 0 && t.timeout_s <= kMaxTimeoutS, "timeout_s",
          "must be > 0 and <= " + number_text(kMaxTimeoutS) + " (seconds)");
  t.model = read_model(r, base_dir);
  JsonObjectReader engine = r.child("engine");
  t.engine = read_engine_config(engine);
}

// A simulated target's file setting: a built-in name as given, a path resolved against the
// workload's folder and required to exist.
std::string read_sim_file(JsonObjectReader& r, const std::string& key, const std::string& base_dir,
                          const std::string& fallback) {
  const std::string raw = r.get_string(key, fallback);
  r.check(!raw.empty() || !fallback.empty(), key, "must be a non-empty name or path");
  if (raw.find('/') == std::string::npos && raw.find(".json") == std::string::npos) return raw;
  return read_existing_path(r, key, base_dir, false);
}

// The model a simulated target simulates: a shape name or config.json path, or an engine
// target's model object (a preset; a safetensors directory's config.json).
std::string read_simulated_model(JsonObjectReader& r, const std::string& base_dir) {
  const json* value = r.find("model");
  if (value == nullptr || value->is_string()) return read_sim_file(r, "model", base_dir, "");
  const ModelSource m = read_model(r, base_dir);
  if (m.kind == "synthetic") return m.preset;
  if (m.kind == "safetensors") return m.path;
  throw WorkloadError(r.file(), r.path_of("model"), json_text(*value),
                      "a shape name, a config.json path, a preset or a safetensors directory",
                      "the simulator reads a model's shape from a config.json; a GGUF file is "
                      "not read yet (give the shape's name or its config.json)");
}

void read_simulated_target(JsonObjectReader& r, TargetSpec& t, const std::string& base_dir) {
  SimulatedTargetSpec& s = t.simulated;
  s.hardware = read_sim_file(r, "hardware", base_dir, "");
  if (r.has("calibration")) s.calibration = read_existing_path(r, "calibration", base_dir, false);
  s.memory_utilization = r.get_double("memory_utilization", s.memory_utilization);
  if (r.has("weight_dtype")) {
    std::vector<std::string> formats = weight_dtype_names();
    formats.push_back("fp8");
    s.weight_dtype = r.get_choice("weight_dtype", "", formats);
  }
  r.allow({"model", "engine"});
  // Replicas behind the router, simulated (docs/simulator.md, "Replicas and disaggregation").
  s.routed = r.has("router");
  if (s.routed) {
    JsonObjectReader router = r.child("router");
    read_router_workers(router, t);
  }
  r.set_context("with type \"simulated\"",
                {"token_delay_us", "url", "api", "timeout_s", "vocab_size", "server_metrics",
                 "tokenizer", "headers", "tls", "reasoning_span"});
  r.finish();
  r.check(s.memory_utilization >= 0 && s.memory_utilization <= 1, "memory_utilization",
          "must be in [0, 1] (0: the engine config's KV pool)");
  s.model = read_simulated_model(r, base_dir);
  JsonObjectReader engine = r.child("engine");
  t.engine = read_engine_config(engine);
}

TargetSpec read_target(JsonObjectReader& top, const std::string& base_dir) {
  JsonObjectReader r = top.child("target");
  TargetSpec t;
  t.type = r.get_choice("type", t.type, {"engine", "echo", "openai", "router", "simulated"});
  if (t.type == "simulated") read_simulated_target(r, t, base_dir);
  if (t.type == "engine") read_engine_target(r, t, base_dir);
  if (t.type == "echo") read_echo_target(r, t);
  if (t.type == "openai") read_openai_target(r, t, base_dir);
  if (t.type == "router") read_router_target(r, t, base_dir);
  return t;
}

// ---- faults ---------------------------------------------------------------------------------

FaultSpec read_fault(JsonObjectReader& r, int replicas) {
  FaultSpec f;
  f.kill_replica = r.get_int("kill_replica", -1);
  f.at_s = r.get_double("at_s", 0);
  f.after_requests = r.get_int("after_requests", 0);
  r.finish();
  r.check(f.kill_replica >= 0 && f.kill_replica < replicas, "kill_replica",
          "must be a replica index in [0, " + std::to_string(replicas - 1) + "]");
  r.check(r.has("at_s") != r.has("after_requests"), r.has("at_s") ? "at_s" : "after_requests",
          "give exactly one of at_s (seconds after the run starts) and after_requests");
  r.check(!r.has("at_s") || (f.at_s > 0 && f.at_s <= kMaxDurationS), "at_s",
          "must be > 0 and <= " + number_text(kMaxDurationS) + " (seconds)");
  r.check(!r.has("after_requests") || (f.after_requests >= 1 && f.after_requests <= kMaxRequests),
          "after_requests", "must be in [1, " + std::to_string(kMaxRequests) + "]");
  return f;
}

std::vector<FaultSpec> read_faults(JsonObjectReader& top, const TargetSpec& target,
                                   const std::optional<SweepSpec>& sweep) {
  const json* v = top.find("faults");
  if (v == nullptr) return {};
  if (target.type != "router") {
    throw WorkloadError(top.file(), top.path_of("faults"), json_text(*v), "target.type \"router\"",
                        "faults are injected into a router target's replicas only");
  }
  if (!v->is_array() || v->size() > kMaxFaults) {
    throw WorkloadError::wrong_type(
        top.file(), top.path_of("faults"), json_text(*v),
        "an array of at most " + std::to_string(kMaxFaults) + " faults");
  }
  // Every sweep point must have the replica a fault kills: a decode worker when disaggregated.
  int replicas = target.router.replicas;
  if (sweep && sweep->field == kSweepReplicas) {
    replicas = int(*std::min_element(sweep->values.begin(), sweep->values.end()));
  }
  int prefill = target.router.prefill_replicas;
  if (sweep && sweep->field == kSweepPrefillReplicas) {
    prefill = int(*std::max_element(sweep->values.begin(), sweep->values.end()));
  }
  replicas -= prefill;
  std::vector<FaultSpec> faults;
  for (size_t i = 0; i < v->size(); ++i) {
    JsonObjectReader r((*v)[i], top.path_of("faults") + "[" + std::to_string(i) + "]", top.file());
    faults.push_back(read_fault(r, replicas));
  }
  return faults;
}

// ---- dataset --------------------------------------------------------------------------------

LengthDistribution read_fixed(JsonObjectReader& r) {
  LengthDistribution d;
  d.value = r.get_int("value", 0);
  r.finish();
  r.check(d.value >= 1, "value", "must be >= 1");
  return d;
}

LengthDistribution read_uniform(JsonObjectReader& r) {
  LengthDistribution d;
  d.kind = LengthDistribution::Kind::kUniform;
  d.min = r.get_int("min", 0);
  d.max = r.get_int("max", 0);
  r.finish();
  r.check(d.min >= 1, "min", "must be >= 1");
  r.check(d.max >= d.min, "max", "must be >= min (" + std::to_string(d.min) + ")");
  return d;
}

LengthDistribution read_bell(JsonObjectReader& r, LengthDistribution::Kind kind) {
  LengthDistribution d;
  d.kind = kind;
  d.mean = r.get_double("mean", 0);
  d.stddev = r.get_double("stddev", -1);
  d.min = r.get_int("min", 1);
  d.max = r.get_int("max", 0);
  r.finish();
  r.check(d.mean > 0, "mean", "must be > 0");
  r.check(d.stddev >= 0, "stddev", "must be >= 0");
  r.check(d.min >= 1, "min", "must be >= 1");
  // A bound is what lets validation prove every request fits the target.
  r.check(d.max >= d.min, "max",
          "must be >= min (" + std::to_string(d.min) +
              "): normal and lognormal lengths need an "
              "upper bound");
  return d;
}

// An object {"dist": ...}, or a bare integer as shorthand for a fixed length.
LengthDistribution read_length(JsonObjectReader& parent, const std::string& key,
                               const LengthDistribution& fallback) {
  const json* value = parent.find(key);
  if (value == nullptr) return fallback;
  if (value->is_number_integer()) {
    LengthDistribution d;
    d.value = parent.get_int(key, 0);
    parent.check(d.value >= 1, key, "must be >= 1");
    return d;
  }
  if (!value->is_object()) {
    throw WorkloadError::wrong_type(parent.file(), parent.path_of(key), json_text(*value),
                                    "an object {\"dist\": ...} or an integer (a fixed length)");
  }
  JsonObjectReader r(*value, parent.path_of(key), parent.file());
  const std::string dist =
      r.get_choice("dist", "fixed", {"fixed", "uniform", "normal", "lognormal"});
  r.set_context("with dist " + json_quoted(dist), {"value", "min", "max", "mean", "stddev"});
  if (dist == "uniform") return read_uniform(r);
  if (dist == "normal") return read_bell(r, LengthDistribution::Kind::kNormal);
  if (dist == "lognormal") return read_bell(r, LengthDistribution::Kind::kLognormal);
  return read_fixed(r);
}

SharedPrefixSpec read_shared_prefix(JsonObjectReader& parent) {
  JsonObjectReader r = parent.child("shared_prefix");
  SharedPrefixSpec p;
  p.num_prefixes = r.get_int("num_prefixes", p.num_prefixes);
  p.prefix_tokens = r.get_int("prefix_tokens", p.prefix_tokens);
  p.fraction = r.get_double("fraction", p.fraction);
  r.finish();
  r.check(p.num_prefixes >= 0 && p.num_prefixes <= kMaxRequests, "num_prefixes",
          "must be in [0, " + number_text(kMaxRequests) + "]");
  r.check(p.prefix_tokens >= 0, "prefix_tokens", "must be >= 0");
  r.check(p.num_prefixes == 0 || p.prefix_tokens >= 1, "prefix_tokens",
          "must be >= 1 when num_prefixes > 0");
  r.check(p.fraction >= 0 && p.fraction <= 1, "fraction", "must be in [0, 1]");
  return p;
}

// A timestamped trace replayed at its own times (bench/dataset/trace_dataset.h).
void read_trace_dataset(JsonObjectReader& r, DatasetSpec& d, const std::string& base_dir) {
  TraceSpec& t = d.trace;
  r.allow({"path"});
  r.check(r.has("format"), "format", "must be the trace's format: mooncake, azure or burstgpt");
  d.format = r.get_choice("format", "", trace_format_names());
  t.speedup = r.get_double("speedup", t.speedup);
  t.start_s = r.get_double("start_s", t.start_s);
  t.end_s = r.get_double("end_s", t.end_s);
  t.max_requests = r.get_int("max_requests", t.max_requests);
  if (d.format == "mooncake") t.block_tokens = r.get_int("block_tokens", t.block_tokens);
  r.set_context("with type \"trace\" and format " + json_quoted(d.format),
                {"input_tokens", "output_tokens", "shared_prefix", "block_tokens"});
  r.finish();
  r.check(t.speedup > 0 && t.speedup <= kMaxRate, "speedup",
          "must be > 0 and <= " + number_text(kMaxRate) + " (trace seconds per run second)");
  r.check(t.start_s >= 0 && t.start_s <= kMaxTraceSeconds, "start_s",
          "must be in [0, " + number_text(kMaxTraceSeconds) + "] (seconds into the trace)");
  r.check(t.end_s == 0 || (t.end_s > t.start_s && t.end_s <= kMaxTraceSeconds), "end_s",
          "must be 0 (the trace's end) or in (start_s, " + number_text(kMaxTraceSeconds) + "]");
  r.check(t.max_requests >= 0 && t.max_requests <= kMaxRequests, "max_requests",
          "must be in [0, " + number_text(kMaxRequests) + "] (0: every record in the window)");
  r.check(t.block_tokens >= 1 && t.block_tokens <= kMaxRequestTokens, "block_tokens",
          "must be in [1, " + number_text(int64_t(kMaxRequestTokens)) + "] (tokens per hash id)");
  d.path = read_existing_path(r, "path", base_dir, /*directory=*/false);
}

// Multi-turn conversations (bench/dataset/session_dataset.h).
void read_sessions_dataset(JsonObjectReader& r, DatasetSpec& d, const std::string& base_dir) {
  SessionsSpec& s = d.sessions;
  d.format = r.get_choice("format", "synthetic", {"synthetic", "sharegpt"});
  s.num_sessions = r.get_int("num_sessions", s.num_sessions);
  if (d.format == "sharegpt") {
    r.allow({"path"});
    r.set_context(
        "with type \"sessions\" and format \"sharegpt\"",
        {"turns", "input_tokens", "output_tokens", "system_prompt_tokens", "shared_prefix"});
    r.finish();
    d.path = read_existing_path(r, "path", base_dir, /*directory=*/false);
  } else {
    s.system_prompt_tokens = r.get_int("system_prompt_tokens", s.system_prompt_tokens);
    r.allow({"turns", "input_tokens", "output_tokens"});
    r.set_context("with type \"sessions\" and format \"synthetic\"", {"path", "shared_prefix"});
    r.finish();
    s.turns = read_length(r, "turns", s.turns);
    d.input_tokens = read_length(r, "input_tokens", d.input_tokens);
    d.output_tokens = read_length(r, "output_tokens", d.output_tokens);
    r.check(s.system_prompt_tokens >= 0 && s.system_prompt_tokens <= kMaxRequestTokens,
            "system_prompt_tokens",
            "must be in [0, " + number_text(int64_t(kMaxRequestTokens)) + "] (0: none)");
  }
  r.check(s.num_sessions >= 1 && s.num_sessions <= kMaxRequests, "num_sessions",
          "must be in [1, " + number_text(kMaxRequests) + "] (sharegpt: the file's first ones)");
}

DatasetSpec read_dataset(JsonObjectReader& top, uint64_t workload_seed,
                         const std::string& base_dir) {
  JsonObjectReader r = top.child("dataset");
  DatasetSpec d;
  d.type = r.get_choice("type", d.type, {"synthetic", "jsonl", "trace", "sessions"});
  d.seed = r.get_uint64("seed", workload_seed);
  if (d.type == "trace") {
    read_trace_dataset(r, d, base_dir);
    return d;
  }
  if (d.type == "sessions") {
    read_sessions_dataset(r, d, base_dir);
    return d;
  }
  if (d.type == "jsonl") {
    r.allow({"path"});
    d.format = r.get_choice("format", d.format, {"tokens", "text", "sharegpt"});
    r.set_context("with type \"jsonl\"", {"input_tokens", "output_tokens", "shared_prefix"});
    r.finish();
    d.path = read_existing_path(r, "path", base_dir, /*directory=*/false);
    return d;
  }
  r.allow({"input_tokens", "output_tokens", "shared_prefix"});
  r.set_context("with type \"synthetic\"", {"path", "format"});
  r.finish();
  d.input_tokens = read_length(r, "input_tokens", d.input_tokens);
  d.output_tokens = read_length(r, "output_tokens", d.output_tokens);
  d.shared_prefix = read_shared_prefix(r);
  return d;
}

// ---- load and sweep -------------------------------------------------------------------------

// A trace brings its own schedule and sessions their own turns: load.mode "trace" goes with a
// trace dataset, "sessions" with a sessions dataset, and each with nothing else.
void check_dataset_pairing(const JsonObjectReader& top, const DatasetSpec& d, const LoadSpec& l) {
  struct Pair {
    const char* kind;
    LoadMode mode;
    const char* needs_mode;  // the dataset's word when the mode is another
    const char* needs_dataset;
  };
  for (const Pair& p :
       {Pair{"trace", LoadMode::kTrace,
             "a trace dataset is replayed at its own times: set load.mode \"trace\"",
             "load.mode \"trace\" takes its times from a dataset of type \"trace\""},
        Pair{"sessions", LoadMode::kSessions,
             "a sessions dataset is held by users turn by turn: set load.mode \"sessions\"",
             "load.mode \"sessions\" takes its conversations from a dataset of type "
             "\"sessions\""}}) {
    if ((d.type == p.kind) == (l.mode == p.mode)) continue;
    const bool dataset_is = d.type == p.kind;
    throw WorkloadError(top.file(), top.path_of("load") + ".mode",
                        json_quoted(load_mode_name(l.mode)),
                        dataset_is ? json_quoted(p.kind) : "the mode of the dataset's type",
                        dataset_is ? p.needs_mode : p.needs_dataset);
  }
}

void read_request_count(JsonObjectReader& r, LoadSpec& l) {
  l.num_requests = r.get_int("num_requests", 0);
  l.duration_s = r.get_double("duration_s", 0);
  l.warmup_requests = r.get_int("warmup_requests", l.warmup_requests);
}

void check_request_count(const JsonObjectReader& r, const LoadSpec& l) {
  const std::string max_requests = number_text(kMaxRequests);
  r.check(l.num_requests >= 0 && l.num_requests <= kMaxRequests, "num_requests",
          "must be in [0, " + max_requests + "]");
  r.check(l.duration_s >= 0 && l.duration_s <= kMaxDurationS, "duration_s",
          "must be in [0, " + number_text(kMaxDurationS) + "] (seconds)");
  r.check(!(l.num_requests > 0 && l.duration_s > 0), "duration_s",
          kOneOfCount + "; num_requests is set too");
  r.check(l.num_requests > 0 || l.duration_s > 0, "num_requests", kOneOfCount);
  r.check(l.warmup_requests >= 0, "warmup_requests", "must be >= 0");
  r.check(int64_t(l.num_requests) + l.warmup_requests <= kMaxRequests, "warmup_requests",
          "num_requests + warmup_requests must be <= " + max_requests);
  // An open loop for a duration plans rate x duration_s requests, each with its record.
  const double planned = l.mode == LoadMode::kOpen && l.duration_s > 0 ? l.rate * l.duration_s : 0;
  r.check(planned + l.warmup_requests <= double(kMaxRequests), "duration_s",
          "rate x duration_s + warmup_requests (the requests planned) must be <= " + max_requests);
}

void read_open_load(JsonObjectReader& r, LoadSpec& l) {
  l.rate = r.get_double("rate", l.rate);
  l.arrival = r.get_choice("arrival", l.arrival, {"constant", "poisson", "gamma"});
  if (l.arrival == "gamma") l.burstiness = r.get_double("burstiness", l.burstiness);
  l.max_concurrency = r.get_int("max_concurrency", l.max_concurrency);
  r.set_context("with mode \"open\" and arrival " + json_quoted(l.arrival) + " without a ramp",
                {"concurrency", "burstiness", "stop_when"});
  r.finish();
  r.check(l.rate > 0 && l.rate <= kMaxRate, "rate",
          "must be > 0 and <= " + number_text(kMaxRate) + " (requests/s)");
  r.check(l.burstiness >= kMinBurstiness && l.burstiness <= kMaxBurstiness, "burstiness",
          "must be in [" + number_text(kMinBurstiness) + ", " + number_text(kMaxBurstiness) + "]");
  r.check(l.max_concurrency >= 0 && l.max_concurrency <= kMaxConcurrency, "max_concurrency",
          "must be in [0, " + number_text(int64_t(kMaxConcurrency)) + "] (0: no cap)");
}

// A ramp's stages, checked: a closed loop's users are whole numbers.
RampSpec read_ramp(JsonObjectReader& load, LoadMode mode) {
  JsonObjectReader r = load.child("ramp");
  RampSpec p;
  p.shape = r.get_choice("shape", p.shape, {"steps", "linear"});
  const bool users = mode == LoadMode::kClosed;
  p.from = users ? r.get_int("from", 1) : r.get_double("from", 0);
  p.to = users ? r.get_int("to", 1) : r.get_double("to", 0);
  p.stages = r.get_int("stages", p.stages);
  p.stage_s = r.get_double("stage_s", p.stage_s);
  r.finish();
  const std::string what = users ? "users (load.concurrency)" : "requests/s (load.rate)";
  const double max = users ? double(kMaxConcurrency) : kMaxRate;
  const double min = users ? 1 : 0;
  const std::string range = std::string(users ? ">= 1" : "> 0") + " and <= " + number_text(max);
  r.check(p.from >= min && p.from > 0 && p.from <= max, "from", "must be " + range + " " + what);
  r.check(p.to >= min && p.to > 0 && p.to <= max, "to", "must be " + range + " " + what);
  r.check(!users || p.to >= p.from, "to", "must be >= from: a closed loop's users only join");
  r.check(p.stages >= 2 && p.stages <= kMaxRampStages, "stages",
          "must be in [2, " + number_text(int64_t(kMaxRampStages)) + "]");
  r.check(p.stage_s > 0 && p.duration_s() <= kMaxDurationS, "stage_s",
          "must be > 0 with stages x stage_s <= " + number_text(kMaxDurationS) + " (seconds)");
  // Every planned request has its record: the busiest rate over the whole ramp bounds them.
  r.check(users || std::max(p.from, p.to) * p.duration_s() <= double(kMaxRequests), "stage_s",
          "the ramp's requests (at most max(from, to) x stages x stage_s) must be <= " +
              number_text(kMaxRequests));
  return p;
}

SaturationStopSpec read_stop_when(JsonObjectReader& load) {
  JsonObjectReader r = load.child("stop_when");
  SaturationStopSpec s;
  s.ttft_p95_ms = r.get_optional_double("ttft_p95_ms");
  s.e2e_p95_ms = r.get_optional_double("e2e_p95_ms");
  s.error_share = r.get_optional_double("error_share");
  r.finish();
  r.check(!s.ttft_p95_ms || *s.ttft_p95_ms > 0, "ttft_p95_ms", "must be > 0 (milliseconds)");
  r.check(!s.e2e_p95_ms || *s.e2e_p95_ms > 0, "e2e_p95_ms", "must be > 0 (milliseconds)");
  r.check(!s.error_share || (*s.error_share >= 0 && *s.error_share < 1), "error_share",
          "must be in [0, 1) (the stage's share of failed requests)");
  r.check(!s.empty(), "ttft_p95_ms",
          "stop_when needs at least one bound: ttft_p95_ms, e2e_p95_ms or error_share");
  return s;
}

// load.ramp: the stages give the rate (open) or the users (closed) and the run's length.
LoadSpec read_ramp_load(JsonObjectReader& r, LoadSpec l) {
  l.ramp = read_ramp(r, l.mode);
  if (r.has("stop_when")) l.stop_when = read_stop_when(r);
  l.warmup_requests = r.get_int("warmup_requests", l.warmup_requests);
  if (l.mode == LoadMode::kOpen) {
    l.arrival = r.get_choice("arrival", l.arrival, {"constant", "poisson", "gamma"});
    if (l.arrival == "gamma") l.burstiness = r.get_double("burstiness", l.burstiness);
  }
  r.set_context("with a ramp (its stages give the " +
                    std::string(l.mode == LoadMode::kOpen ? "rate" : "users") + " and the length)",
                {"num_requests", "duration_s", "rate", "concurrency", "max_concurrency", "arrival",
                 "burstiness", "search"});
  r.finish();
  r.check(l.burstiness >= kMinBurstiness && l.burstiness <= kMaxBurstiness, "burstiness",
          "must be in [" + number_text(kMinBurstiness) + ", " + number_text(kMaxBurstiness) + "]");
  r.check(l.warmup_requests >= 0 && l.warmup_requests <= kMaxRequests, "warmup_requests",
          "must be in [0, " + number_text(kMaxRequests) + "] (the first requests sent)");
  return l;
}

LoadSpec read_load(JsonObjectReader& top) {
  JsonObjectReader r = top.child("load");
  LoadSpec l;
  l.mode = load_mode_from_name(r.get_choice("mode", load_mode_name(l.mode), load_mode_names()));
  if ((l.mode == LoadMode::kOpen || l.mode == LoadMode::kClosed) && r.has("ramp"))
    return read_ramp_load(r, l);
  if ((l.mode == LoadMode::kOpen || l.mode == LoadMode::kClosed) && r.has("search"))
    return read_search_load(r, l);
  if (l.mode == LoadMode::kSessions) {  // users hold conversations; the dataset gives their count
    l.concurrency = r.get_int("concurrency", l.concurrency);
    l.think_time_s = r.get_double("think_time_s", l.think_time_s);
    l.warmup_requests = r.get_int("warmup_requests", l.warmup_requests);
    r.set_context("with mode \"sessions\" (the dataset's sessions give the count)",
                  {"num_requests", "duration_s", "rate", "arrival", "burstiness", "max_concurrency",
                   "ramp", "stop_when", "search"});
    r.finish();
    r.check(l.concurrency >= 1 && l.concurrency <= kMaxConcurrency, "concurrency",
            "must be in [1, " + number_text(int64_t(kMaxConcurrency)) + "] (users)");
    r.check(l.think_time_s >= 0 && l.think_time_s <= kMaxDurationS, "think_time_s",
            "must be in [0, " + number_text(kMaxDurationS) + "] (seconds)");
    r.check(l.warmup_requests >= 0 && l.warmup_requests <= kMaxRequests, "warmup_requests",
            "must be in [0, " + number_text(kMaxRequests) + "] (the first requests sent)");
    return l;
  }
  if (l.mode == LoadMode::kTrace) {  // the trace dataset gives the times and the count
    l.warmup_requests = r.get_int("warmup_requests", l.warmup_requests);
    r.set_context("with mode \"trace\" (the trace gives the times and the count)",
                  {"num_requests", "duration_s", "rate", "arrival", "burstiness", "concurrency",
                   "max_concurrency", "ramp", "stop_when", "search"});
    r.finish();
    r.check(l.warmup_requests >= 0 && l.warmup_requests <= kMaxRequests, "warmup_requests",
            "must be in [0, " + number_text(kMaxRequests) + "] (the trace's first requests)");
    return l;
  }
  read_request_count(r, l);
  if (l.mode == LoadMode::kOpen) {
    read_open_load(r, l);
  } else {
    l.concurrency = r.get_int("concurrency", l.concurrency);
    r.set_context("with mode \"closed\" without a ramp",
                  {"rate", "arrival", "burstiness", "max_concurrency", "stop_when"});
    r.finish();
    r.check(l.concurrency >= 1 && l.concurrency <= kMaxConcurrency, "concurrency",
            "must be in [1, " + number_text(int64_t(kMaxConcurrency)) + "]");
  }
  check_request_count(r, l);
  return l;
}

// What one sweep field's values may be.
struct SweepRule {
  bool integers = false;
  double min = 0;
  bool min_open = false;  // values must be above min (else at least min)
  double max = 0;
  std::string what;  // "requests/s", "concurrencies", ...

  bool admits(double v) const { return (min_open ? v > min : v >= min) && v <= max; }
  std::string range() const {
    return std::string(min_open ? "> " : ">= ") + number_text(min) + " and <= " + number_text(max);
  }
};

SweepRule sweep_rule(const std::string& field, const TargetSpec& target) {
  if (field == "load.rate") return {false, 0, true, kMaxRate, "requests/s"};
  if (field == "load.concurrency")
    return {true, 1, false, double(kMaxConcurrency), "concurrencies"};
  if (field == kSweepReplicas) return {true, 1, false, double(kMaxRouterReplicas), "replicas"};
  if (field == kSweepSpecTokens) return {true, 0, false, 16, "proposed tokens, 0: off"};
  if (field == kSweepStructured) return {true, 0, false, 1, "0: plain, 1: with structure"};
  if (field == kSweepPrefillReplicas) {
    return {true, 0, false, double(target.router.replicas - 1),
            "prefill workers, fewer than router.replicas"};
  }
  return {false, 0, false, kMaxKvReadRateMbS, "MB/s, 0 for no cap"};  // kSweepKvReadRate
}

std::vector<double> read_sweep_values(JsonObjectReader& r, const SweepRule& rule) {
  const std::string expected = "a non-empty array of " +
                               std::string(rule.integers ? "integers " : "numbers ") +
                               rule.range() + " (" + rule.what + ")";
  const json* v = r.find("values");
  if (v == nullptr) throw WorkloadError::missing(r.file(), r.path_of("values"), expected);
  if (!v->is_array() || v->empty()) {
    throw WorkloadError::wrong_type(r.file(), r.path_of("values"), json_text(*v), expected);
  }
  if (v->size() > kMaxSweepPoints) {
    throw WorkloadError::out_of_range(
        r.file(), r.path_of("values"), std::to_string(v->size()) + " points",
        "at most " + std::to_string(kMaxSweepPoints) + " sweep points, each a whole measured run");
  }
  std::vector<double> values;
  for (size_t i = 0; i < v->size(); ++i) {
    const std::string path = r.path_of("values") + "[" + std::to_string(i) + "]";
    const json& e = (*v)[i];
    if (!(rule.integers ? e.is_number_integer() : e.is_number())) {
      throw WorkloadError::wrong_type(r.file(), path, json_text(e),
                                      rule.integers ? "an integer" : "a number");
    }
    const double value = e.get<double>();
    if (!rule.admits(value)) {
      throw WorkloadError::out_of_range(r.file(), path, json_text(e),
                                        "must be " + rule.range() + " (" + rule.what + ")");
    }
    // A point given twice would be measured twice and merged into one in the results.
    const auto same = std::find(values.begin(), values.end(), value);
    if (same != values.end()) {
      const std::string first =
          r.path_of("values") + "[" + std::to_string(same - values.begin()) + "]";
      throw WorkloadError(
          r.file(), path, json_text(e), "distinct values",
          json_text(e) + " is a duplicate of " + first + " (each sweep point once)");
    }
    values.push_back(value);
  }
  return values;
}

std::optional<SweepSpec> read_sweep(JsonObjectReader& top, const LoadSpec& load,
                                    const TargetSpec& target) {
  if (top.find("sweep") == nullptr) return std::nullopt;
  JsonObjectReader r = top.child("sweep");
  r.allow({"field", "values"});
  r.finish();
  // The swept field must be the one the load mode uses: a rate means nothing to a closed loop.
  // A router target may sweep its workers instead.
  const bool users = load.mode == LoadMode::kClosed || load.mode == LoadMode::kSessions;
  const std::string field = load.ramp                      ? "no load field (load.ramp gives it)"
                            : load.search                  ? "no load field (load.search gives it)"
                            : load.mode == LoadMode::kOpen ? "load.rate"
                            : users                        ? "load.concurrency"
                                                           : "no load field";
  const bool router = target.type == "router" || target.simulated.routed;
  const std::vector<std::string> router_fields = {kSweepReplicas, kSweepPrefillReplicas,
                                                  kSweepKvReadRate};
  std::string allowed = field + " (load.mode is " + json_quoted(load_mode_name(load.mode)) + ")";
  if (router) {
    for (const std::string& f : router_fields) allowed += ", " + f;
  }
  const bool speculating = target.type == "engine" && target.engine.speculates();
  allowed += std::string(", ") + kSweepSpecTokens + " (engine targets with a speculative.method)";
  allowed += std::string(", ") + kSweepStructured + " (workloads with structured_output)";
  r.check(r.has("field"), "field", "must be " + allowed);
  SweepSpec s;
  s.field = r.get_string("field", "");
  const bool router_field = router && std::find(router_fields.begin(), router_fields.end(),
                                                s.field) != router_fields.end();
  const bool spec_field = speculating && s.field == kSweepSpecTokens;
  const bool structured_field = top.has("structured_output") && s.field == kSweepStructured;
  if (s.field != field && !router_field && !spec_field && !structured_field) {
    throw WorkloadError::not_allowed(r.file(), r.path_of("field"), json_quoted(s.field), allowed);
  }
  s.values = read_sweep_values(r, sweep_rule(s.field, target));
  if (s.field == kSweepReplicas) {  // each point keeps its prefill workers and a decode worker
    for (double v : s.values) {
      r.check(v > target.router.prefill_replicas, "values",
              "each must be above router.prefill_replicas (" +
                  std::to_string(target.router.prefill_replicas) + "): some worker must decode");
    }
  }
  return s;
}

// ---- top level ------------------------------------------------------------------------------

SloSpec read_slo(JsonObjectReader& top) {
  JsonObjectReader r = top.child("slo");
  SloSpec s;
  s.ttft_ms = r.get_optional_double("ttft_ms");
  s.tpot_ms = r.get_optional_double("tpot_ms");
  s.e2e_ms = r.get_optional_double("e2e_ms");
  r.finish();
  r.check(!s.ttft_ms || *s.ttft_ms > 0, "ttft_ms", "must be > 0");
  r.check(!s.tpot_ms || *s.tpot_ms > 0, "tpot_ms", "must be > 0");
  r.check(!s.e2e_ms || *s.e2e_ms > 0, "e2e_ms", "must be > 0");
  return s;
}

SamplingSpec read_sampling(JsonObjectReader& top) {
  JsonObjectReader r = top.child("sampling");
  SamplingSpec s;
  s.temperature = r.get_double("temperature", s.temperature);
  s.top_k = r.get_int("top_k", s.top_k);
  s.top_p = r.get_double("top_p", s.top_p);
  r.finish();
  r.check(s.temperature >= 0 && s.temperature <= 100, "temperature",
          "must be >= 0 and <= 100 (0: greedy)");
  r.check(s.top_k >= 0 && s.top_k <= 1'000'000, "top_k", "must be >= 0 and <= 1000000 (0: off)");
  r.check(s.top_p > 0 && s.top_p <= 1, "top_p", "must be > 0 and <= 1 (1: off)");
  return s;
}

TelemetrySpec read_telemetry(JsonObjectReader& top) {
  JsonObjectReader r = top.child("telemetry");
  TelemetrySpec t;
  t.cupti = r.get_bool("cupti", t.cupti);
  r.finish();
  return t;
}

std::optional<QualitySpec> read_quality(JsonObjectReader& top, const TargetSpec& target,
                                        const std::string& base_dir) {
  const json* v = top.find("quality");
  if (v == nullptr) return std::nullopt;
  if (target.type != "engine") {
    throw WorkloadError(top.file(), top.path_of("quality"), json_text(*v), "target.type \"engine\"",
                        "quality is scored on the harness's own copy of an engine target's model");
  }
  JsonObjectReader r = top.child("quality");
  QualitySpec q;
  q.text = read_existing_path(r, "text", base_dir, /*directory=*/false);
  q.baseline_dtype = r.get_choice("baseline_dtype", q.baseline_dtype, weight_dtype_names());
  q.context = r.get_int64("context", q.context);
  q.chunks = r.get_int64("chunks", q.chunks);
  r.finish();
  r.check(q.context >= 4 && q.context <= kMaxQualityContext, "context",
          "must be in [4, " + std::to_string(kMaxQualityContext) +
              "] (and at most the model's max_position_embeddings)");
  r.check(
      q.chunks >= 0 && q.chunks <= kMaxQualityChunks, "chunks",
      "must be in [0, " + std::to_string(kMaxQualityChunks) + "] (0: as many as the text fills)");
  return q;
}

std::optional<StructuredOutputSpec> read_structured_output(JsonObjectReader& top,
                                                           const TargetSpec& target,
                                                           const std::string& base_dir) {
  const json* v = top.find("structured_output");
  if (v == nullptr) return std::nullopt;
  if (target.type != "openai" && target.type != "router") {
    throw WorkloadError(top.file(), top.path_of("structured_output"), json_text(*v),
                        "target.type \"openai\" or \"router\"",
                        "structured output is asked of a server over HTTP");
  }
  JsonObjectReader r = top.child("structured_output");
  StructuredOutputSpec s;
  s.path = read_existing_path(r, "path", base_dir, /*directory=*/false);
  r.finish();
  return s;
}

std::vector<std::string> read_overrides(JsonObjectReader& r) {
  const json* v = r.find("overrides");
  if (v == nullptr) return {};
  std::vector<std::string> overrides;
  const std::string expected = "an array of \"path=value\" strings";
  if (!v->is_array()) {
    throw WorkloadError::wrong_type(r.file(), r.path_of("overrides"), json_text(*v), expected);
  }
  for (const json& o : *v) {
    if (!o.is_string()) {
      throw WorkloadError::wrong_type(r.file(), r.path_of("overrides"), json_text(*v), expected);
    }
    overrides.push_back(o.get<std::string>());
  }
  return overrides;
}

void read_schema(JsonObjectReader& r) {
  const std::string allowed = json_quoted(kSchema);
  r.check(r.has("schema"), "schema", "must be " + allowed);
  const std::string schema = r.get_string("schema", "");
  if (schema != kSchema) {
    throw WorkloadError::not_allowed(r.file(), r.path_of("schema"), json_quoted(schema), allowed);
  }
}

void read_header(JsonObjectReader& r, Workload& w) {
  read_schema(r);
  w.name = r.get_string("name", "");
  w.description = r.get_string("description", "");
  w.seed = r.get_uint64("seed", w.seed);
  w.repetitions = r.get_int("repetitions", w.repetitions);
  w.record_requests = r.get_bool("record_requests", w.record_requests);
  w.overrides = read_overrides(r);
  r.check(!w.name.empty(), "name", "must be a non-empty string");
  r.check(w.repetitions >= 1 && w.repetitions <= kMaxRepetitions, "repetitions",
          "must be in [1, " + number_text(int64_t(kMaxRepetitions)) + "]");
}

// ---- files ----------------------------------------------------------------------------------

// nlohmann says "[json.exception.parse_error.101] parse error at line 3, column 5: DETAIL".
WorkloadError syntax_error(const std::string& file, const json::parse_error& e) {
  const std::string what = e.what();
  const size_t at = what.find("at line ");
  const size_t colon = what.find(": ", at == std::string::npos ? 0 : at);
  if (at == std::string::npos || colon == std::string::npos) {
    return WorkloadError(file, "", "", "", std::string("invalid JSON: ") + what);
  }
  return WorkloadError(file, what.substr(at + 3, colon - at - 3), "", "",
                       "invalid JSON: " + what.substr(colon + 2));
}

json read_document(const std::string& path) {
  std::string text;
  try {  // a regular file only (a FIFO would block), at most kMaxWorkloadFileBytes
    text = read_regular_file(path, kMaxWorkloadFileBytes);
  } catch (const InputFileError& e) {
    const bool missing = e.problem() == "no such file";
    throw WorkloadError(path, "", "", "",
                        e.problem() + (missing ? " (expected a workload JSON file)" : ""));
  }
  try {
    return parse_strict_json(text);
  } catch (const json::parse_error& e) {
    throw syntax_error(path, e);
  } catch (const StrictJsonError& e) {
    throw WorkloadError(path, e.path(), e.value(), e.allowed(), e.what());
  }
}

// Applies the overrides and records them after any the document already carries.
void apply_overrides(json& doc, const std::vector<std::string>& overrides) {
  for (const std::string& o : overrides) apply_override(doc, o);
  if (overrides.empty() || !doc.is_object()) return;
  json& record = doc["overrides"];
  if (record.is_null()) record = json::array();
  if (!record.is_array()) return;  // parse_workload reports it
  for (const std::string& o : overrides) record.push_back(o);
}

// True when `inner` is `outer` or lies inside it (`$.load.rate` inside `$.load`).
bool path_within(const std::string& inner, const std::string& outer) {
  if (inner.rfind(outer, 0) != 0) return false;
  return inner.size() == outer.size() || inner[outer.size()] == '.' || inner[outer.size()] == '[';
}

// The last override that set the erroneous value, or something inside the erroneous object.
std::string override_behind(const WorkloadError& e, const std::vector<std::string>& overrides) {
  for (auto it = overrides.rbegin(); it != overrides.rend(); ++it) {
    std::string path = "$";
    for (const std::string& segment : parse_override(*it).path) path += "." + segment;
    if (path_within(e.where(), path) || (e.where() != "$" && path_within(path, e.where()))) {
      return *it;
    }
  }
  return "";
}

}  // namespace

Workload parse_workload(const json& doc, const std::string& source_name,
                        const std::string& base_dir) {
  JsonObjectReader r(doc, "$", source_name);
  r.allow({"schema", "name", "description", "seed", "repetitions", "record_requests", "overrides",
           "target", "dataset", "load", "sweep", "faults", "slo", "telemetry", "quality",
           "sampling", "structured_output"});
  r.finish();  // a misspelled section is reported as such, not as its missing contents
  Workload w;
  read_header(r, w);
  w.target = read_target(r, base_dir);
  w.dataset = read_dataset(r, w.seed, base_dir);
  w.load = read_load(r);
  check_dataset_pairing(r, w.dataset, w.load);
  w.sweep = read_sweep(r, w.load, w.target);
  w.faults = read_faults(r, w.target, w.sweep);
  w.slo = read_slo(r);
  check_search_has_slo(r, w.load, w.slo);
  w.telemetry = read_telemetry(r);
  w.quality = read_quality(r, w.target, base_dir);
  w.structured_output = read_structured_output(r, w.target, base_dir);
  w.sampling = read_sampling(r);
  w.sampling.seed = w.seed;
  check_synthetic_lengths(w, source_name, static_request_limit(w.target));
  w.resolved = workload_to_json(w);
  w.hash = workload_hash(w.resolved, base_dir);
  return w;
}

Workload load_workload_file(const std::string& path, const std::vector<std::string>& overrides) {
  json doc = read_document(path);
  apply_overrides(doc, overrides);
  try {
    Workload w = parse_workload(doc, path, fs::absolute(path).parent_path().string());
    w.source_path = path;
    return w;
  } catch (const WorkloadError& e) {
    const std::string cause = override_behind(e, overrides);
    if (cause.empty()) throw;
    throw e.with_note("(set by --set " + override_text(cause) + ")");
  }
}

}  // namespace infergate

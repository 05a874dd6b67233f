// Workload files: every way a file can be wrong is refused with its path, value and what is
// allowed; valid files resolve to one canonical JSON and hash.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bench/workload/closest_match.h"
#include "bench/workload/overrides.h"
#include "bench/workload/workload_error.h"
#include "bench/workload/workload_parser.h"

namespace infergate {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kBase = R"({
  "schema": "infergate.workload/v1",
  "name": "quickstart",
  "target": {"type": "engine", "model": {"preset": "tiny"}, "engine": {"max_num_seqs": 16}},
  "dataset": {
    "type": "synthetic",
    "input_tokens": {"dist": "uniform", "min": 32, "max": 128},
    "output_tokens": 32,
    "shared_prefix": {"num_prefixes": 2, "prefix_tokens": 64, "fraction": 0.5}
  },
  "load": {"mode": "open", "rate": 10, "arrival": "poisson", "num_requests": 50},
  "slo": {"ttft_ms": 500, "tpot_ms": 50}
})";

// A fresh directory per test, removed afterwards.
class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = fs::temp_directory_path() / ("infergate_workload_test_" + std::to_string(::getpid()) +
                                         "_" + std::to_string(counter++));
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string write(const std::string& name, const std::string& text) const {
    const fs::path file = path_ / name;
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text;
    return file.string();
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

json base_with(const std::string& merge_patch) {
  json doc = json::parse(kBase);
  doc.merge_patch(json::parse(merge_patch));
  return doc;
}

// The message of the WorkloadError that loading `text` with `overrides` throws ("" if none).
std::string error_of(const std::string& text, const std::vector<std::string>& overrides = {}) {
  TempDir dir;
  const std::string file = dir.write("w.json", text);
  try {
    load_workload_file(file, overrides);
  } catch (const WorkloadError& e) {
    return e.what();
  }
  return "";
}

struct BadCase {
  const char* label = "";
  std::string patch = "{}";                 // a JSON merge patch applied to kBase, or
  std::string raw = "";                     // the whole file when patch is ""
  std::vector<std::string> overrides = {};  // --set
  std::vector<std::string> expected = {};   // substrings of the message
};

const std::vector<BadCase>& bad_cases() {
  static const std::vector<BadCase> cases = {
      {.label = "unknown top-level key",
       .patch = R"({"laod": {}})",
       .expected = {"$.laod: unknown key", "did you mean load?", "schema, name"}},
      {.label = "unknown engine key, with a suggestion",
       .patch = R"({"target": {"engine": {"max_num_seq": 8}}})",
       .expected = {"$.target.engine.max_num_seq: unknown key (did you mean max_num_seqs?",
                    "block_size"}},
      {.label = "unknown key in a distribution",
       .patch = R"({"dataset": {"input_tokens": {"mode": 3}}})",
       .expected = {"$.dataset.input_tokens.mode: unknown key", "allowed: dist, min, max"}},
      {.label = "unknown key in shared_prefix",
       .patch = R"({"dataset": {"shared_prefix": {"fractions": 0.1}}})",
       .expected = {"$.dataset.shared_prefix.fractions", "did you mean fraction?"}},
      {.label = "unknown key in slo",
       .patch = R"({"slo": {"ttft": 100}})",
       .expected = {"$.slo.ttft: unknown key", "did you mean ttft_ms?",
                    "ttft_ms, tpot_ms, e2e_ms"}},
      {.label = "key of the other load mode",
       .patch = R"({"load": {"mode": "closed", "arrival": null, "concurrency": 4}})",
       .expected = {"$.load.rate: not used with mode \"closed\"", "allowed: mode, num_requests"}},
      {.label = "burstiness without gamma arrival",
       .patch = R"({"load": {"burstiness": 0.5}})",
       .expected = {"$.load.burstiness: not used with mode \"open\" and arrival \"poisson\""}},
      {.label = "string where a number belongs",
       .patch = R"({"load": {"rate": "fast"}})",
       .expected = {"$.load.rate: expected a number, got \"fast\""}},
      {.label = "fraction where an integer belongs",
       .patch = R"({"load": {"num_requests": 1.5}})",
       .expected = {"$.load.num_requests: expected an integer, got 1.5"}},
      {.label = "boolean is not a number",
       .patch = R"({"target": {"engine": {"max_num_seqs": true}}})",
       .expected = {"$.target.engine.max_num_seqs: expected an integer, got true"}},
      {.label = "number is not a boolean",
       .patch = R"({"target": {"engine": {"prefix_caching": 1}}})",
       .expected = {"$.target.engine.prefix_caching: expected true or false, got 1"}},
      {.label = "section of the wrong type",
       .patch = R"({"load": [1]})",
       .expected = {"$.load: expected an object, got [1]"}},
      {.label = "misspelled choice",
       .patch = R"({"load": {"arrival": "poison"}})",
       .expected =
           {"$.load.arrival: \"poison\" is not allowed (allowed: constant, poisson, gamma; did "
            "you mean poisson?)"}},
      {.label = "negative rate",
       .patch = R"({"load": {"rate": -1}})",
       .expected = {"$.load.rate: -1 is out of range (must be > 0 and <= 1000000 (requests/s))"}},
      {.label = "closed loop without users",
       .patch = R"({"load": {"mode": "closed", "rate": null, "arrival": null, "concurrency": 0}})",
       .expected = {"$.load.concurrency: 0 is out of range (must be in [1, 65536])"}},
      {.label = "both request count and duration",
       .patch = R"({"load": {"duration_s": 30}})",
       .expected = {"$.load.duration_s: 30 is out of range",
                    "exactly one of num_requests, duration_s"}},
      {.label = "neither request count nor duration",
       .patch = R"({"load": {"num_requests": null}})",
       .expected = {"$.load.num_requests: required key is missing",
                    "exactly one of num_requests, duration_s"}},
      {.label = "gamma arrivals need burstiness in range",
       .patch = R"({"load": {"arrival": "gamma", "burstiness": 0}})",
       .expected = {"$.load.burstiness: 0 is out of range (must be in [0.001, 1000])"}},
      {.label = "negative warm-up",
       .patch = R"({"load": {"warmup_requests": -2}})",
       .expected = {"$.load.warmup_requests: -2 is out of range (must be >= 0)"}},
      {.label = "sweep field must match the load mode",
       .patch = R"({"sweep": {"field": "load.concurrency", "values": [1, 2]}})",
       .expected = {"$.sweep.field: \"load.concurrency\" is not allowed",
                    "load.rate (load.mode is \"open\")"}},
      {.label = "sweep needs values",
       .patch = R"({"sweep": {"field": "load.rate", "values": []}})",
       .expected = {"$.sweep.values: expected a non-empty array of numbers > 0"}},
      {.label = "each sweep value valid for its field",
       .patch = R"({"sweep": {"field": "load.rate", "values": [1, -2]}})",
       .expected = {"$.sweep.values[1]: -2 is out of range (must be > 0 and <= 1000000"}},
      {.label = "concurrency sweep values are integers",
       .patch = R"({"load": {"mode": "closed", "rate": null, "arrival": null},
           "sweep": {"field": "load.concurrency", "values": [1, 2.5]}})",
       .expected = {"$.sweep.values[1]: expected an integer, got 2.5"}},
      {.label = "jsonl needs a path",
       .patch = R"({"dataset": {"type": "jsonl", "input_tokens": null, "output_tokens": null,
                       "shared_prefix": null}})",
       .expected = {"$.dataset.path: required key is missing (must be a non-empty path)"}},
      {.label = "jsonl formats",
       .patch = R"({"dataset": {"type": "jsonl", "path": "p.jsonl", "format": "csv",
           "input_tokens": null, "output_tokens": null, "shared_prefix": null}})",
       .expected = {"$.dataset.format: \"csv\" is not allowed", "tokens, text, sharegpt"}},
      {.label = "jsonl file must exist",
       .patch = R"({"dataset": {"type": "jsonl", "path": "missing.jsonl", "input_tokens": null,
           "output_tokens": null, "shared_prefix": null}})",
       .expected = {"$.dataset.path: \"", "missing.jsonl\" is not an existing file"}},
      {.label = "synthetic keys with jsonl",
       .patch = R"({"dataset": {"type": "jsonl", "path": "p.jsonl"}})",
       .expected = {"$.dataset.input_tokens: not used with type \"jsonl\""}},
      {.label = "uniform min above max",
       .patch = R"({"dataset": {"input_tokens": {"min": 200}}})",
       .expected = {"$.dataset.input_tokens.max: 128 is out of range (must be >= min (200))"}},
      {.label = "normal needs a positive mean",
       .patch = R"({"dataset": {"output_tokens": {"dist": "normal", "mean": 0, "stddev": 4}}})",
       .expected = {"$.dataset.output_tokens.mean: 0 is out of range (must be > 0)"}},
      {.label = "lognormal needs a stddev",
       .patch = R"({"dataset": {"output_tokens": {"dist": "lognormal", "mean": 100}}})",
       .expected = {"$.dataset.output_tokens.stddev: required key is missing (must be >= 0)"}},
      {.label = "fixed shorthand must be >= 1",
       .patch = R"({"dataset": {"output_tokens": 0}})",
       .expected = {"$.dataset.output_tokens: 0 is out of range (must be >= 1)"}},
      {.label = "keys of another distribution",
       .patch = R"({"dataset": {"output_tokens": {"dist": "fixed", "value": 8, "mean": 3}}})",
       .expected = {"$.dataset.output_tokens.mean: not used with dist \"fixed\"",
                    "allowed: dist, value"}},
      {.label = "prefix fraction in [0, 1]",
       .patch = R"({"dataset": {"shared_prefix": {"fraction": 1.5}}})",
       .expected = {"$.dataset.shared_prefix.fraction: 1.5 is out of range (must be in [0, 1])"}},
      {.label = "prefixes need a length",
       .patch = R"({"dataset": {"shared_prefix": {"prefix_tokens": 0}}})",
       .expected = {"$.dataset.shared_prefix.prefix_tokens: 0 is out of range",
                    "must be >= 1 when num_prefixes > 0"}},
      {.label = "repetitions >= 1",
       .patch = R"({"repetitions": 0})",
       .expected = {"$.repetitions: 0 is out of range (must be in [1, 1000])"}},
      {.label = "negative seed",
       .patch = R"({"seed": -3})",
       .expected = {"$.seed: -3 is out of range (must be >= 0)"}},
      {.label = "name required",
       .patch = R"({"name": null})",
       .expected = {"$.name: required key is missing (must be a non-empty string)"}},
      {.label = "target types",
       .patch = R"({"target": {"type": "vllm"}})",
       .expected = {"$.target.type: \"vllm\" is not allowed", "engine, echo, openai"}},
      {.label = "engine keys with an echo target",
       .patch = R"({"target": {"type": "echo", "model": null}})",
       .expected = {"$.target.engine: not used with type \"echo\"",
                    "allowed: type, token_delay_us"}},
      {.label = "openai needs a url",
       .patch = R"({"target": {"type": "openai", "model": "llama", "engine": null}})",
       .expected = {"$.target.url: required key is missing", "non-empty URL"}},
      {.label = "engine config rules come from EngineConfig::validate",
       .patch = R"({"target": {"engine": {"paged_kv": false}}})",
       .expected = {"$.target.engine.prefix_caching: true is not allowed",
                    "(allowed: false when paged_kv is false"}},
      {.label = "engine range rules",
       .patch = R"({"target": {"engine": {"block_size": 0}}})",
       .expected = {"$.target.engine.block_size: 0 is not allowed (allowed: 1..1024)"}},
      {.label = "kv cache dtypes",
       .patch = R"({"target": {"engine": {"kv_cache_dtype": "q8_0"}}})",
       .expected = {"$.target.engine.kv_cache_dtype: \"q8_0\" is not allowed", "f32, f16, bf16"}},
      {.label = "exactly one model source",
       .patch = R"({"target": {"model": {"preset": "tiny", "gguf": "m.gguf"}}})",
       .expected = {"$.target.model: ", "needs exactly one of preset, gguf, safetensors"}},
      {.label = "model presets",
       .patch = R"({"target": {"model": {"preset": "huge"}}})",
       .expected = {"$.target.model.preset: \"huge\" is not allowed", "tiny, small, moe-tiny"}},
      {.label = "model files must exist",
       .patch = R"({"target": {"model": {"preset": null, "gguf": "m.gguf"}}})",
       .expected = {"$.target.model.gguf: \"", "m.gguf\" is not an existing file"}},
      {.label = "missing schema",
       .patch = R"({"schema": null})",
       .expected = {"$.schema: required key is missing", "infergate.workload/v1"}},
      {.label = "wrong schema version",
       .patch = R"({"schema": "infergate.workload/v2"})",
       .expected = {"$.schema: \"infergate.workload/v2\" is not allowed",
                    "allowed: \"infergate.workload/v1\""}},
      {.label = "root must be an object",
       .patch = "",
       .raw = "[1, 2]",
       .expected = {"$: expected an object, got [1,2]"}},
      {.label = "JSON syntax error with line and column",
       .patch = "",
       .raw = "{\n  \"schema\": \"infergate.workload/v1\",\n  \"name\": \"x\",,\n}",
       .expected = {"w.json: line 3, column", "invalid JSON"}},
      {.label = "empty file",
       .patch = "",
       .raw = "",
       .expected = {"line 1, column 1: invalid JSON"}},
      {.label = "a stage layer count that is not an integer",
       .patch = R"({"target": {"engine": {"pipeline_parallel": 2,
                                           "pipeline_stage_layers": [3, "x"]}}})",
       .expected = {"$.target.engine.pipeline_stage_layers[1]: expected an integer, got \"x\""}},
      {.label = "backends",
       .patch = R"({"target": {"engine": {"backend": "tpu"}}})",
       .expected = {"$.target.engine.backend: \"tpu\" is not allowed", "cpu, cuda"}},
      {.label = "cuda GEMMs",
       .patch = R"({"target": {"engine": {"backend": "cuda", "cuda_gemm": "cutlass"}}})",
       .expected = {"$.target.engine.cuda_gemm: \"cutlass\" is not allowed", "cublas, infergate"}},
      {.label = "CUDA graphs need the cuda backend",
       .patch = R"({"target": {"engine": {"cuda_graphs": true}}})",
       .expected = {"$.target.engine.cuda_graphs", "false unless backend is cuda"}},
      {.label = "the cuda backend has no q8_0 GEMM",
       .patch = R"({"target": {"engine": {"backend": "cuda", "weight_dtype": "q8_0"}}})",
       .expected = {"$.target.engine.weight_dtype", "with backend cuda"}},
      {.label = "the cuda backend graphs no multi-rank step",
       .patch = R"({"target": {"engine": {"backend": "cuda", "tensor_parallel": 2,
                                          "cuda_graphs": true}}})",
       .expected = {"$.target.engine.cuda_graphs", "false with more than one rank"}},
      {.label = "stage layers for another number of stages",
       .patch = R"({"target": {"engine": {"pipeline_stage_layers": [3, 3]}}})",
       .expected = {"$.target.engine.pipeline_stage_layers", "pipeline_parallel counts"}},
      // ---- sizes bounded by what is meaningful, each limit named ----
      {.label = "an open loop at 1e308 requests per second",
       .patch = R"({"load": {"rate": 1e308}})",
       .expected = {"$.load.rate: 1e+308 is out of range", "<= 1000000 (requests/s)"}},
      {.label = "an echo delay of 1e308 microseconds per token",
       .patch = R"({"target": {"type": "echo", "model": null, "engine": null,
                               "token_delay_us": 1e308}})",
       .expected = {"$.target.token_delay_us: 1e+308 is out of range",
                    "[0, 1000000] (microseconds per token)"}},
      {.label = "output tokens beyond the model's max_model_len",
       .patch = R"({"dataset": {"output_tokens": 1000000000}})",
       .expected = {"$.dataset.output_tokens: 1000000000 is out of range",
                    "shared prefix + input_tokens: 192",
                    "must fit the model's max_model_len (1024)"}},
      {.label = "a prompt beyond the engine's own max_model_len",
       .patch = R"({"target": {"engine": {"max_model_len": 100}}})",
       .expected = {"$.dataset.input_tokens: 128 is out of range",
                    "must fit target.engine.max_model_len (100)"}},
      {.label = "output tokens beyond the echo target's documented maximum",
       .patch = R"({"target": {"type": "echo", "model": null, "engine": null},
                    "dataset": {"output_tokens": 2000000}})",
       .expected = {"$.dataset.output_tokens: 2000000 is out of range",
                    "must fit the limit for echo targets (1048576)"}},
      {.label = "normal lengths without an upper bound",
       .patch = R"({"dataset": {"output_tokens": {"dist": "normal", "mean": 8, "stddev": 2}}})",
       .expected = {"$.dataset.output_tokens.max: required key is missing", "need an upper bound"}},
      {.label = "num_requests INT_MAX",
       .patch = R"({"load": {"num_requests": 2147483647}})",
       .expected = {"$.load.num_requests: 2147483647 is out of range (must be in [0, 1000000])"}},
      {.label = "num_requests + warmup_requests past the request limit",
       .patch = R"({"load": {"num_requests": 1000000, "warmup_requests": 2147483647}})",
       .expected = {"$.load.warmup_requests: 2147483647 is out of range",
                    "num_requests + warmup_requests must be <= 1000000"}},
      {.label = "an open loop planning more requests than the limit",
       .patch = R"({"load": {"num_requests": null, "duration_s": 86400, "rate": 1000}})",
       .expected = {"$.load.duration_s: 86400 is out of range",
                    "rate x duration_s + warmup_requests (the requests planned) must be <= "
                    "1000000"}},
      {.label = "a duration past a day",
       .patch = R"({"load": {"num_requests": null, "duration_s": 1e308}})",
       .expected = {"$.load.duration_s: 1e+308 is out of range", "[0, 86400] (seconds)"}},
      {.label = "INT_MAX closed-loop users",
       .patch = R"({"load": {"mode": "closed", "rate": null, "arrival": null,
                             "concurrency": 2147483647}})",
       .expected = {"$.load.concurrency: 2147483647 is out of range (must be in [1, 65536])"}},
      {.label = "an open loop's max_concurrency past the limit",
       .patch = R"({"load": {"max_concurrency": 1000000}})",
       .expected = {"$.load.max_concurrency: 1000000 is out of range", "[0, 65536]"}},
      {.label = "gamma burstiness of 1e-300",
       .patch = R"({"load": {"arrival": "gamma", "burstiness": 1e-300}})",
       .expected = {"$.load.burstiness: 1e-300 is out of range (must be in [0.001, 1000])"}},
      {.label = "repetitions INT_MAX",
       .patch = R"({"repetitions": 2147483647})",
       .expected = {"$.repetitions: 2147483647 is out of range (must be in [1, 1000])"}},
      {.label = "a dataset that would hold more prompt tokens than the limit",
       .patch = R"({"target": {"type": "echo", "model": null, "engine": null},
                    "load": {"num_requests": 1000000},
                    "dataset": {"input_tokens": 1000, "shared_prefix": null}})",
       .expected = {"$.dataset.input_tokens: 1000 is out of range",
                    "1000000 dataset requests x the longest prompt (1000 tokens) must be <= "
                    "268435456 tokens"}},
      {.label = "shared prefixes that would hold more tokens than the limit",
       .patch = R"({"dataset": {"shared_prefix": {"num_prefixes": 1000000,
                                                   "prefix_tokens": 1000}}})",
       .expected = {"$.dataset.shared_prefix.num_prefixes: 1000000 is out of range",
                    "num_prefixes x prefix_tokens (1000) must be <= 268435456 tokens"}},
      {.label = "a collective deadline of 1e308 seconds",
       .patch = R"({"target": {"engine": {"comm_timeout_s": 1e308}}})",
       .expected = {"$.target.engine.comm_timeout_s: 1e+308 is out of range", "<= 86400"}},
      {.label = "a duplicate sweep point",
       .patch = R"({"sweep": {"field": "load.rate", "values": [1, 2, 1]}})",
       .expected = {"$.sweep.values[2]: 1 is a duplicate of $.sweep.values[0]",
                    "each sweep point once"}},
      {.label = "a sweep rate of 1e308",
       .patch = R"({"sweep": {"field": "load.rate", "values": [1, 1e308]}})",
       .expected = {"$.sweep.values[1]: 1e+308 is out of range", "<= 1000000 (requests/s)"}},
      {.label = "a sweep concurrency past the limit",
       .patch = R"({"load": {"mode": "closed", "rate": null, "arrival": null},
           "sweep": {"field": "load.concurrency", "values": [1, 100000]}})",
       .expected = {"$.sweep.values[1]: 100000 is out of range (must be >= 1 and <= 65536 "
                    "(concurrencies))"}},
      // ---- what the JSON itself can do ----
      {.label = "100000 nested arrays in the description",
       .patch = "",
       .raw = R"({"schema": "infergate.workload/v1", "description": )" + std::string(100000, '[') +
              std::string(100000, ']') + "}",
       .expected = {"w.json: $.description[0][0]", "nests too deep (at most 128 levels"}},
      {.label = "a key given twice in one object",
       .patch = "",
       .raw = R"({"schema": "infergate.workload/v1", "name": "a",
                  "load": {"rate": 1, "mode": "open", "rate": 2}})",
       .expected = {"w.json: $.load.rate: duplicate key (each key may appear once per object)"}},
      {.label = "a number beyond a double",
       .patch = "",
       .raw = R"({"schema": "infergate.workload/v1", "load": {"num_requests": 1e309}})",
       .expected = {"w.json: $.load.num_requests: 1e309 is out of range",
                    "a finite number, |x| <= 1.8e308"}},
      {.label = "a number beyond a double inside an array",
       .patch = "",
       .raw = R"({"sweep": {"values": [1, 2, -1e400]}})",
       .expected = {"w.json: $.sweep.values[2]: -1e400 is out of range"}},
      {.label = "a one megabyte unknown key",
       .patch = "",
       .raw = R"({"schema": "infergate.workload/v1", ")" + std::string(1 << 20, 'k') + R"(": 1})",
       .expected = {"$.kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk...: unknown key"}},
      {.label = "override with 100000 nested arrays",
       .overrides = {"description=" + std::string(100000, '[') + std::string(100000, ']')},
       .expected = {"--set description=[[[[", "$.description[0][0]", "nests too deep"}},
      {.label = "override with a number beyond a double",
       .overrides = {"load.rate=1e309"},
       .expected = {"--set load.rate=1e309: $.load.rate: 1e309 is out of range"}},
      {.label = "override with a path 100000 segments deep",
       .overrides = {[] {
         std::string path;
         for (int i = 0; i < 100000; ++i) path += "a.";
         return path + "b=1";
       }()},
       .expected = {"--set a.a.a.a", "...: 100001 path segments nest too deep (at most 127)"}},
      {.label = "override naming a one megabyte value is quoted short",
       .overrides = {"load.rate=" + std::string(1 << 20, 'x')},
       .expected = {"$.load.rate: expected a number, got \"xxxx", "(set by --set load.rate=xxx",
                    "...)"}},
      {.label = "sampling temperature below 0",
       .patch = R"({"sampling": {"temperature": -1}})",
       .expected = {"$.sampling.temperature", "must be >= 0 and <= 100 (0: greedy)"}},
      {.label = "sampling top_p of 0",
       .patch = R"({"sampling": {"top_p": 0}})",
       .expected = {"$.sampling.top_p", "must be > 0 and <= 1"}},
      {.label = "sampling with an unknown key",
       .patch = R"({"sampling": {"seed": 3}})",
       .expected = {"$.sampling.seed: unknown key"}},
      {.label = "a speculation sweep without speculation",
       .patch = R"({"load": {"mode": "closed", "rate": null, "arrival": null},
                    "sweep": {"field": "target.engine.speculative.num_tokens", "values": [0, 4]}})",
       .expected = {"$.sweep.field",
                    "target.engine.speculative.num_tokens (engine targets with a "
                    "speculative.method)"}},
      {.label = "a speculation sweep past 16 tokens",
       .patch = R"({"target": {"engine": {"speculative": {"method": "ngram"}}},
                    "load": {"mode": "closed", "rate": null, "arrival": null},
                    "sweep": {"field": "target.engine.speculative.num_tokens", "values": [17]}})",
       .expected = {"$.sweep.values[0]: 17 is out of range (must be >= 0 and <= 16 (proposed "
                    "tokens, 0: off))"}},
      {.label = "override without '='",
       .overrides = {"load.rate"},
       .expected = {"--set load.rate: expected path=value"}},
      {.label = "override with an empty path",
       .overrides = {"=4"},
       .expected = {"--set =4: empty path"}},
      {.label = "override with an empty segment",
       .overrides = {"load..rate=4"},
       .expected = {"--set load..rate=4: empty path segment"}},
      {.label = "override value that is not UTF-8",
       .overrides = {"name=\xff"},
       .expected = {"--set name=\xff: the value is not valid UTF-8"}},
      {.label = "override through a number",
       .overrides = {"load.rate.x=1"},
       .expected = {"--set load.rate.x=1: load.rate is 10, not an object"}},
      {.label = "override to an invalid value names the override",
       .overrides = {"load.rate=-1"},
       .expected =
           {"$.load.rate: -1 is out of range (must be > 0 and <= 1000000 (requests/s)) (set "
            "by --set load.rate=-1)"}},
      {.label = "override of an unknown key",
       .overrides = {"load.rat=4"},
       .expected = {"$.load.rat: unknown key (did you mean rate?", "(set by --set load.rat=4)"}},
      {.label = "override that breaks the object it lands in",
       .overrides = {"target.model.gguf=m.gguf"},
       .expected = {"$.target.model: ", "needs exactly one of preset, gguf, safetensors",
                    "(set by --set target.model.gguf=m.gguf)"}},
  };
  return cases;
}

TEST_CASE("invalid workload files are refused with the path, the value and what is allowed") {
  for (const BadCase& c : bad_cases()) {
    const std::string text = c.patch.empty() ? c.raw : base_with(c.patch).dump(2);
    const std::string message = error_of(text, c.overrides);
    INFO(c.label << "\nmessage: " << message.substr(0, 2000));
    CHECK(!message.empty());
    // Whatever the input's size, the message quotes a bounded part of it.
    CHECK(message.size() < 1000);
    for (const std::string& expected : c.expected)
      CHECK(message.find(expected) != std::string::npos);
  }
  CHECK(bad_cases().size() >= 25);
}

TEST_CASE("a missing workload file is reported by name") {
  try {
    load_workload_file("/nonexistent/w.json");
    FAIL("no error");
  } catch (const WorkloadError& e) {
    CHECK(std::string(e.what()).find("/nonexistent/w.json: no such file") == 0);
  }
}

TEST_CASE("workload errors carry their parts separately") {
  try {
    parse_workload(base_with(R"({"load": {"arrival": "poison"}})"), "q.json");
    FAIL("no error");
  } catch (const WorkloadError& e) {
    CHECK(e.file() == "q.json");
    CHECK(e.where() == "$.load.arrival");
    CHECK(e.value() == "\"poison\"");
    CHECK(e.allowed() == "constant, poisson, gamma");
  }
}

// ---- valid files ------------------------------------------------------------------------------

std::vector<json> good_documents() {
  return {
      json::parse(kBase),
      base_with(R"({"load": {"mode": "closed", "rate": null, "arrival": null, "concurrency": 4},
                    "sweep": {"field": "load.concurrency", "values": [1, 2, 8]}})"),
      base_with(R"({"load": {"arrival": "gamma", "burstiness": 0.5, "num_requests": null,
                             "duration_s": 30, "warmup_requests": 3, "max_concurrency": 8},
                    "sweep": {"field": "load.rate", "values": [1, 2.5, 4]},
                    "dataset": {"output_tokens": {"dist": "lognormal", "mean": 200,
                                                  "stddev": 50, "max": 512}},
                    "seed": 7, "repetitions": 3, "record_requests": true})"),
      base_with(R"({"target": {"type": "echo", "model": null, "engine": null,
                               "token_delay_us": 250}})"),
      base_with(R"({"target": {"type": "openai", "url": "http://localhost:8000", "model": "m",
                               "engine": null, "api": "chat"}})"),
      base_with(R"({"target": {"engine": {"weight_dtype": "q8_0", "kv_cache_dtype": "bf16",
           "block_size": 32, "paged_kv": false, "prefix_caching": false,
           "chunked_prefill": false, "continuous_batching": false, "max_num_seqs": 4,
           "max_num_batched_tokens": 4096, "max_model_len": 1024, "kv_cache_bytes": 1048576,
           "num_kv_blocks": 64, "num_threads": 2, "seed": 9}}})"),
      base_with(R"({"target": {"engine": {"backend": "cuda", "cuda_gemm": "infergate",
                                          "weight_dtype": "bf16"}}})"),
      base_with(R"({"sampling": {"temperature": 1, "top_k": 8, "top_p": 0.9}})"),
      base_with(R"({"target": {"engine": {"speculative": {"method": "self", "draft_layers": 1}}},
                    "load": {"mode": "closed", "rate": null, "arrival": null, "concurrency": 1},
                    "sweep": {"field": "target.engine.speculative.num_tokens",
                              "values": [0, 4]}})"),
  };
}

TEST_CASE("resolved workloads parse back to the same resolved JSON and hash") {
  for (const json& doc : good_documents()) {
    INFO(doc.dump());
    const Workload first = parse_workload(doc, "w.json");
    const Workload second = parse_workload(first.resolved, "resolved.json");
    CHECK(second.resolved == first.resolved);
    CHECK(second.hash == first.hash);
    CHECK(first.hash.rfind("fnv1a64:", 0) == 0);
    CHECK(first.hash.size() == 8 + 16);
  }
}

TEST_CASE("different valid files have different hashes") {
  std::vector<std::string> hashes;
  for (const json& doc : good_documents()) hashes.push_back(parse_workload(doc, "w").hash);
  std::sort(hashes.begin(), hashes.end());
  CHECK(std::adjacent_find(hashes.begin(), hashes.end()) == hashes.end());
}

TEST_CASE("the resolved form fills every default and drops nothing that applies") {
  const Workload w = parse_workload(json::parse(kBase), "w");
  const json& r = w.resolved;
  CHECK(r["target"]["model"] == json::parse(R"({"preset": "tiny", "seed": 0})"));
  CHECK(r["target"]["engine"]["max_num_seqs"] == 16);
  CHECK(r["target"]["engine"]["block_size"] == 16);
  CHECK(r["target"]["engine"]["kv_cache_dtype"] == "f32");
  CHECK(r["dataset"]["output_tokens"] == json::parse(R"({"dist": "fixed", "value": 32})"));
  CHECK(r["dataset"]["seed"] == 0);
  CHECK(r["load"] == json::parse(R"({"mode": "open", "rate": 10.0, "arrival": "poisson",
      "num_requests": 50, "warmup_requests": 0, "max_concurrency": 0})"));
  CHECK(r["slo"] == json::parse(R"({"ttft_ms": 500.0, "tpot_ms": 50.0})"));
  CHECK(!r.contains("sweep"));
  CHECK(w.load.rate == 10.0);
  CHECK(w.dataset.input_tokens.kind == LengthDistribution::Kind::kUniform);
  CHECK(w.dataset.shared_prefix.num_prefixes == 2);
  CHECK(w.slo.tpot_ms == 50.0);
  CHECK(!w.slo.e2e_ms);
}

TEST_CASE("every engine switch is read into EngineConfig") {
  const Workload w = parse_workload(good_documents()[5], "w");
  const EngineConfig& c = w.target.engine;
  CHECK(c.weight_dtype == WeightDtype::kQ8_0);
  CHECK(c.kv_cache_dtype == DType::kBF16);
  CHECK(c.block_size == 32);
  CHECK(!c.paged_kv);
  CHECK(!c.prefix_caching);
  CHECK(!c.chunked_prefill);
  CHECK(!c.continuous_batching);
  CHECK(c.max_num_seqs == 4);
  CHECK(c.max_num_batched_tokens == 4096);
  CHECK(c.max_model_len == 1024);
  CHECK(c.kv_cache_bytes == 1048576);
  CHECK(c.num_kv_blocks == 64);
  CHECK(c.num_threads == 2);
  CHECK(c.seed == 9);
}

TEST_CASE("only cuda workloads spell out the backend, so CPU hashes stay put") {
  const Workload cpu = parse_workload(json::parse(kBase), "w");
  CHECK(!cpu.resolved["target"]["engine"].contains("backend"));
  CHECK(parse_workload(base_with(R"({"target": {"engine": {"backend": "cpu"}}})"), "w").hash ==
        cpu.hash);
  const Workload gpu =
      parse_workload(base_with(R"({"target": {"engine": {"backend": "cuda"}}})"), "w");
  CHECK(gpu.resolved["target"]["engine"]["backend"] == "cuda");
  CHECK(gpu.resolved["target"]["engine"]["cuda_gemm"] == "cublas");
  CHECK(gpu.resolved["target"]["engine"]["cuda_sampling"] == true);
  CHECK(gpu.resolved["target"]["engine"]["cuda_graphs"] == false);
  CHECK(gpu.hash != cpu.hash);
}

TEST_CASE("equal semantics give equal resolved JSON and hash") {
  const Workload terse = parse_workload(json::parse(kBase), "a");
  const Workload verbose =
      parse_workload(base_with(R"({"seed": 0, "repetitions": 1, "dataset": {"seed": 0,
        "output_tokens": {"dist": "fixed", "value": 32}},
        "load": {"rate": 10.0, "warmup_requests": 0, "duration_s": 0},
        "target": {"model": {"seed": 0}, "engine": {"block_size": 16}}})"),
                     "b");
  CHECK(verbose.resolved == terse.resolved);
  CHECK(verbose.hash == terse.hash);
}

TEST_CASE("the dataset seed defaults to the workload seed") {
  const Workload w = parse_workload(base_with(R"({"seed": 42})"), "w");
  CHECK(w.dataset.seed == uint64_t{42});
  CHECK(w.resolved["dataset"]["seed"] == 42);
}

TEST_CASE("labels do not change the hash, measured fields do") {
  const Workload base = parse_workload(json::parse(kBase), "w");
  CHECK(parse_workload(base_with(R"({"name": "other", "description": "d"})"), "w").hash ==
        base.hash);
  CHECK(parse_workload(base_with(R"({"load": {"rate": 11}})"), "w").hash != base.hash);
}

TEST_CASE("comments are allowed in workload files") {
  TempDir dir;
  const std::string file = dir.write("c.json", R"(// a quick check
{
  /* the schema version */ "schema": "infergate.workload/v1",
  "name": "commented",  // trailing comment
  "load": {"mode": "closed", "concurrency": 2, "num_requests": 4}
})");
  const Workload w = load_workload_file(file);
  CHECK(w.name == "commented");
  CHECK(w.load.concurrency == 2);
  CHECK(w.source_path == file);
}

TEST_CASE("overrides change the value, are recorded and change the hash") {
  TempDir dir;
  const std::string file = dir.write("q.json", kBase);
  const Workload plain = load_workload_file(file);
  const Workload changed = load_workload_file(
      file, {"load.rate=4", "target.engine.prefix_caching=false", "load.arrival=constant",
             "sweep={\"field\": \"load.rate\", \"values\": [1, 2]}", "slo.ttft_ms=null"});
  CHECK(changed.load.rate == 4.0);
  CHECK(changed.load.arrival == "constant");
  CHECK(!changed.target.engine.prefix_caching);
  REQUIRE(changed.sweep);
  CHECK(changed.sweep->values == std::vector<double>{1, 2});
  CHECK(!changed.slo.ttft_ms);
  CHECK(changed.overrides.size() == 5);
  CHECK(changed.overrides[0] == "load.rate=4");
  CHECK(changed.resolved["overrides"] == json(changed.overrides));
  CHECK(changed.hash != plain.hash);
  // Parsing the resolved form keeps the record without applying anything twice.
  const Workload again = parse_workload(changed.resolved, "resolved");
  CHECK(again.resolved == changed.resolved);
  CHECK(again.hash == changed.hash);
}

TEST_CASE("an override to the value already there keeps the hash") {
  TempDir dir;
  const std::string file = dir.write("q.json", kBase);
  const Workload same = load_workload_file(file, {"load.rate=10"});
  CHECK(same.hash == load_workload_file(file).hash);
  CHECK(same.overrides == std::vector<std::string>{"load.rate=10"});
}

TEST_CASE("override values are JSON when they parse, plain strings otherwise") {
  json doc = json::object();
  apply_override(doc, "a.b.c=3");
  apply_override(doc, "a.s=poisson");
  apply_override(doc, "a.q=\"4\"");
  apply_override(doc, "a.list=[1,2]");
  apply_override(doc, "a.list.1=5");
  apply_override(doc, "a.t=true");
  apply_override(doc, "a.eq=x=y");
  CHECK(doc == json::parse(R"({"a": {"b": {"c": 3}, "s": "poisson", "q": "4", "list": [1, 5],
                                     "t": true, "eq": "x=y"}})"));
  apply_override(doc, "a.b=null");
  CHECK(!doc["a"].contains("b"));
}

TEST_CASE("relative dataset and model paths are resolved against the workload's folder") {
  TempDir dir;
  dir.write("data/prompts.jsonl", "{\"prompt_tokens\": [1, 2], \"output_tokens\": 4}\n");
  dir.write("workloads/models/m.gguf", "");
  const std::string file = dir.write("workloads/w.json", base_with(R"({
      "dataset": {"type": "jsonl", "path": "../data/prompts.jsonl", "format": "tokens",
                  "input_tokens": null, "output_tokens": null, "shared_prefix": null},
      "target": {"model": {"preset": null, "gguf": "models/m.gguf"}}})")
                                                             .dump());
  const Workload w = load_workload_file(file);
  const fs::path root = fs::absolute(dir.path()).lexically_normal();
  CHECK(w.dataset.path == (root / "data" / "prompts.jsonl").string());
  CHECK(w.target.model.kind == "gguf");
  CHECK(w.target.model.path == (root / "workloads" / "models" / "m.gguf").string());
  CHECK(w.resolved["dataset"]["path"] == w.dataset.path);
  CHECK(w.resolved["target"]["model"] == json{{"gguf", w.target.model.path}});
  // The resolved form is self-contained: it parses anywhere to the same workload.
  CHECK(parse_workload(w.resolved, "resolved").resolved == w.resolved);
}

TEST_CASE("closest_match suggests plausible typos only") {
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(closest_match("max_num_seq", {"max_num_seqs", "max_model_len"}) == "max_num_seqs");
  CHECK(closest_match("poison", {"constant", "poisson", "gamma"}) == "poisson");
  CHECK(closest_match("zzzzzz", {"rate", "mode"}).empty());
}

TEST_CASE("repetitions and record_requests do not change the hash, but debug switches do") {
  const Workload plain = parse_workload(json::parse(kBase), "w");
  const Workload repeated =
      parse_workload(base_with(R"({"repetitions": 30, "record_requests": true})"), "w");
  const Workload slowed = parse_workload(
      base_with(R"({"target": {"engine": {"debug": {"inject_decode_delay_us": 100}}}})"), "w");
  CHECK(repeated.hash == plain.hash);
  CHECK(slowed.hash != plain.hash);
  CHECK(slowed.resolved["target"]["engine"]["debug"]["inject_decode_delay_us"] == 100);
  CHECK_THROWS_WITH(
      parse_workload(base_with(R"({"target": {"engine": {"debug": {"inject_delay": 1}}}})"), "w"),
      Catch::Contains("$.target.engine.debug.inject_delay"));
}

}  // namespace
}  // namespace infergate

TEST_CASE("the hash does not depend on where the checkout lives", "[bench][workload]") {
  namespace fs = std::filesystem;
  const std::string text = R"({"schema": "infergate.workload/v1", "name": "w",
    "target": {"type": "echo"},
    "dataset": {"type": "jsonl", "path": "data/prompts.jsonl", "format": "tokens"},
    "load": {"mode": "closed", "concurrency": 1, "num_requests": 1}})";
  std::vector<std::string> hashes;
  for (const char* root : {"infergate-hash-a", "infergate-hash-b/deeper"}) {
    const fs::path dir = fs::temp_directory_path() / root;
    fs::create_directories(dir / "data");
    std::ofstream(dir / "data" / "prompts.jsonl")
        << R"({"prompt_tokens": [1, 2], "output_tokens": 2})"
        << "\n";
    std::ofstream(dir / "w.json") << text;
    hashes.push_back(infergate::load_workload_file((dir / "w.json").string()).hash);
  }
  REQUIRE(hashes[0] == hashes[1]);
  fs::remove_all(fs::temp_directory_path() / "infergate-hash-a");
  fs::remove_all(fs::temp_directory_path() / "infergate-hash-b");
}

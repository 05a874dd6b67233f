// The engine config field table against everything it drives: the workload reader and writer,
// the CLI flags and the docs tables must all agree with it, field by field.
#include <algorithm>
#include <boost/program_options.hpp>
#include <catch2/catch.hpp>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bench/workload/engine_config_json.h"
#include "bench/workload/json_object_reader.h"
#include "cli/engine_options.h"
#include "engine/core/engine_config_fields.h"

namespace infergate {
namespace {

using nlohmann::json;
namespace po = boost::program_options;

// Two configs that between them set every field away from its default: a multi-rank CPU one
// (the parallel fields are written) and a cuda one (the cuda fields are written).
const json kMultiRank = json::parse(R"({
  "weight_dtype": "q8_0", "kv_cache_dtype": "bf16", "block_size": 32, "paged_kv": false,
  "prefix_caching": false, "grammar_jump_forward": false, "chunked_prefill": false,
  "continuous_batching": false,
  "max_num_seqs": 3, "max_num_batched_tokens": 99, "max_model_len": 77,
  "fit_max_model_len": true, "kv_cache_bytes": 12345, "num_kv_blocks": 7, "num_threads": 3,
  "seed": 42, "tensor_parallel": 2,
  "debug": {"inject_decode_delay_us": 5, "inject_step_error_every": 9,
            "inject_step_error_fatal": true},
  "pipeline_parallel": 2, "expert_parallel": 2, "pipeline_micro_batches": 3,
  "pipeline_stage_layers": [3, 1], "comm_timeout_s": 5.5})");
const json kCuda = json::parse(R"({
  "weight_dtype": "bf16", "kv_cache_dtype": "f16", "block_size": 8, "paged_kv": true,
  "prefix_caching": true, "chunked_prefill": true, "continuous_batching": true,
  "max_num_seqs": 64, "max_num_batched_tokens": 2048, "max_model_len": 0,
  "kv_cache_bytes": 268435456, "num_kv_blocks": 0, "num_threads": 0, "seed": 0,
  "debug": {"inject_decode_delay_us": 0}, "backend": "cuda", "cuda_gemm": "infergate",
  "cuda_sampling": false, "cuda_graphs": true})");
const json kSpeculative = json::parse(R"({
  "weight_dtype": "auto", "kv_cache_dtype": "f32", "block_size": 16, "paged_kv": true,
  "prefix_caching": true, "chunked_prefill": true, "continuous_batching": true,
  "max_num_seqs": 64, "max_num_batched_tokens": 2048, "max_model_len": 0,
  "kv_cache_bytes": 268435456, "num_kv_blocks": 0, "num_threads": 0, "seed": 0,
  "debug": {"inject_decode_delay_us": 0},
  "speculative": {"method": "ngram", "num_tokens": 6, "prompt_lookup_max": 5,
                  "prompt_lookup_min": 2, "adaptive": true}})");
// Draft models: one named (a preset with its seed, converted), the target's own first layers.
json with_speculative(const char* speculative) {
  json engine = kSpeculative;
  engine["speculative"] = json::parse(speculative);
  return engine;
}
const json kDraftModel = with_speculative(R"({"method": "draft_model", "num_tokens": 4,
    "prompt_lookup_max": 4, "prompt_lookup_min": 1, "draft_model": "small", "draft_seed": 7,
    "draft_layers": 0, "draft_weight_dtype": "q4_0"})");
const json kSelf = with_speculative(R"({"method": "self", "num_tokens": 4,
    "prompt_lookup_max": 4, "prompt_lookup_min": 1, "draft_model": "", "draft_seed": 0,
    "draft_layers": 2, "draft_weight_dtype": "auto"})");

EngineConfig read(const json& engine) {
  JsonObjectReader reader(engine, "$.target.engine", "w.json");
  return read_engine_config(reader);
}

// The value of workload key `key` ("debug.x" nests) in `engine`, or null.
json value_at(const json& engine, const std::string& key) {
  const size_t dot = key.find('.');
  if (dot == std::string::npos) return engine.contains(key) ? engine[key] : json();
  const std::string object = key.substr(0, dot);
  return engine.contains(object) ? value_at(engine[object], key.substr(dot + 1)) : json();
}

// The command line that says what `engine` says, one flag per field it sets differently from
// the default (a bool's flag only turns its default around).
std::vector<std::string> flags_for(const json& engine) {
  const json defaults = engine_config_to_json(EngineConfig());
  std::vector<std::string> args = {"infergate"};
  for (const EngineConfigField& f : engine_config_fields()) {
    const json value = value_at(engine, f.key);
    if (value.is_null() || value == value_at(defaults, f.key)) continue;
    args.push_back("--" + f.flag);
    if (value.is_boolean()) continue;
    if (value.is_string()) {
      args.push_back(value.get<std::string>());
    } else if (value.is_array()) {
      std::string list;
      for (const json& n : value) list += (list.empty() ? "" : ",") + n.dump();
      args.push_back(list);
    } else {
      args.push_back(value.dump());
    }
  }
  return args;
}

EngineConfig parse_flags(const std::vector<std::string>& args) {
  po::options_description desc;
  add_engine_options(desc);
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  po::variables_map vm;
  po::store(po::parse_command_line(int(argv.size()), argv.data(), desc), vm);
  po::notify(vm);
  EngineConfig c;
  apply_engine_options(vm, c);
  return c;
}

std::string file_text(const std::string& relative) {
  std::ifstream in(std::string(INFERGATE_SOURCE_DIR) + "/" + relative);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void check_doc_holds(const std::string& relative, const std::string& rows) {
  const bool holds = file_text(relative).find(rows) != std::string::npos;
  if (!holds) std::cerr << relative << " should hold this table, from the field table:\n" << rows;
  CHECK(holds);
}

TEST_CASE("workload JSON round-trips every engine config field through the config") {
  for (const json& engine : {kMultiRank, kCuda, kSpeculative, kDraftModel, kSelf}) {
    CHECK(engine_config_to_json(read(engine)) == engine);
  }
}

TEST_CASE("every engine config field is set away from its default by some workload key") {
  const EngineConfig defaults;
  for (const EngineConfigField& f : engine_config_fields()) {
    INFO(f.key);
    bool set = false;
    for (const json& engine : {kMultiRank, kCuda, kSpeculative, kDraftModel, kSelf}) {
      set = set || field_value_text(f, read(engine)) != field_value_text(f, defaults);
    }
    CHECK(set);
  }
}

TEST_CASE("every engine config field has a flag that sets what its workload key sets") {
  for (const json& engine : {kMultiRank, kCuda, kSpeculative, kDraftModel, kSelf}) {
    const std::vector<std::string> args = flags_for(engine);
    INFO(engine.dump());
    CHECK(engine_config_to_json(parse_flags(args)) == engine);
  }
}

TEST_CASE("engine flags keep their names and each field has its own") {
  std::set<std::string> flags;
  for (const EngineConfigField& f : engine_config_fields()) {
    CHECK(flags.insert(f.flag).second);
  }
  for (const char* old : {"weight-dtype",      "kv-dtype",          "block-size",
                          "no-paged-kv",       "no-prefix-cache",   "no-chunked-prefill",
                          "static-batching",   "max-num-seqs",      "max-num-batched-tokens",
                          "max-model-len",     "fit-max-model-len", "num-kv-blocks",
                          "threads",           "backend",           "cuda-gemm",
                          "host-sampling",     "cuda-graphs",       "tensor-parallel",
                          "pipeline-parallel", "expert-parallel",   "micro-batches",
                          "pipeline-layers",   "comm-timeout"}) {
    CHECK(flags.count(old) == 1);
  }
}

TEST_CASE("the no-paged-kv flag also turns prefix caching off") {
  const EngineConfig c = parse_flags({"infergate", "--no-paged-kv"});
  CHECK(!c.paged_kv);
  CHECK(!c.prefix_caching);
  CHECK(c.chunked_prefill);
}

TEST_CASE("bad engine flag values are refused naming the flag or field") {
  CHECK_THROWS_WITH(parse_flags({"infergate", "--kv-dtype", "int4"}),
                    Catch::Contains("--kv-dtype int4: not a KV cache dtype"));
  CHECK_THROWS_WITH(parse_flags({"infergate", "--backend", "tpu"}),
                    Catch::Contains("backend = tpu (allowed: cpu, cuda)"));
  CHECK_THROWS_WITH(parse_flags({"infergate", "--comm-timeout", "0"}),
                    Catch::Contains("--comm-timeout 0: out of range"));
  CHECK_THROWS_WITH(parse_flags({"infergate", "--pipeline-layers", "4,x"}),
                    Catch::Contains("--pipeline-layers 4,x: 'x' is not an integer"));
}

TEST_CASE("a field out of its range is refused at its JSON path") {
  CHECK_THROWS_WITH(read(json{{"block_size", 0}}),
                    Catch::Contains("$.target.engine.block_size") && Catch::Contains("1..1024"));
  CHECK_THROWS_WITH(read(json{{"debug", {{"inject_decode_delay_us", -1}}}}),
                    Catch::Contains("$.target.engine.debug.inject_decode_delay_us") &&
                        Catch::Contains("0..10000000"));
}

TEST_CASE("docs/engine.md's configuration table is the rendered field table") {
  check_doc_holds("docs/engine.md", render_engine_docs_table());
}

TEST_CASE("docs/workload-schema.md's engine table is the rendered field table") {
  check_doc_holds("docs/workload-schema.md", render_workload_schema_table());
}

}  // namespace
}  // namespace infergate

#include "engine/parallel/rank_setup.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace infergate {

std::string encode_rank_setup(const RankSetup& s) {
  const EngineConfig& c = s.config;
  const nlohmann::json j = {{"source",
                             {{"kind", s.source.kind},
                              {"preset", s.source.preset},
                              {"seed", s.source.seed},
                              {"path", s.source.path}}},
                            {"backend", backend_name(c.backend)},
                            {"cuda_gemm", cuda_gemm_name(c.cuda_gemm)},
                            {"weight_dtype", weight_dtype_name(c.weight_dtype)},
                            {"kv_cache_dtype", dtype_name(c.kv_cache_dtype)},
                            {"block_size", c.block_size},
                            {"num_threads", c.num_threads},
                            {"tensor_parallel", c.tensor_parallel},
                            {"pipeline_parallel", c.pipeline_parallel},
                            {"expert_parallel", c.expert_parallel},
                            {"pipeline_micro_batches", c.pipeline_micro_batches},
                            {"pipeline_stage_layers", c.pipeline_stage_layers},
                            {"comm_timeout_s", c.comm_timeout_s},
                            {"num_kv_blocks", s.num_kv_blocks}};
  return j.dump();
}

RankSetup decode_rank_setup(const std::string& text) {
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    RankSetup s;
    const nlohmann::json& src = j.at("source");
    s.source = {src.at("kind"), src.at("preset"), src.at("seed"), src.at("path")};
    EngineConfig& c = s.config;
    c.backend = parse_backend(j.at("backend"));
    c.cuda_gemm = parse_cuda_gemm(j.at("cuda_gemm"));
    c.weight_dtype = parse_weight_dtype(j.at("weight_dtype"));
    c.kv_cache_dtype = parse_dtype(j.at("kv_cache_dtype"));
    c.block_size = j.at("block_size");
    c.num_threads = j.at("num_threads");
    c.tensor_parallel = j.at("tensor_parallel");
    c.pipeline_parallel = j.at("pipeline_parallel");
    c.expert_parallel = j.at("expert_parallel");
    c.pipeline_micro_batches = j.at("pipeline_micro_batches");
    c.pipeline_stage_layers = j.at("pipeline_stage_layers").get<std::vector<int>>();
    c.comm_timeout_s = j.at("comm_timeout_s");
    s.num_kv_blocks = j.at("num_kv_blocks");
    return s;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("rank setup from rank 0 is not valid: ") + e.what());
  }
}

}  // namespace infergate

#include "cli/engine_options.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/workload/workload_limits.h"

namespace infergate {

namespace po = boost::program_options;

namespace {

// "4,2" -> {4, 2}; throws std::invalid_argument naming the flag.
std::vector<int> parse_int_list(const std::string& text, const std::string& flag) {
  std::vector<int> out;
  size_t at = 0;
  while (at <= text.size()) {
    const size_t comma = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, comma - at);
    size_t used = 0;
    int value = 0;
    try {
      value = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (item.empty() || used != item.size()) {
      throw std::invalid_argument(flag + " " + text + ": '" + item +
                                  "' is not an integer (want e.g. 4,2)");
    }
    out.push_back(value);
    at = comma + 1;
  }
  return out;
}

}  // namespace

void add_engine_options(po::options_description& desc, EngineConfig& c, std::string& kv_dtype) {
  desc.add_options()("weight-dtype", po::value(&c.weight_dtype)->default_value("auto"),
                     "auto | f32 | f16 | bf16 | q8_0")(
      "kv-dtype", po::value(&kv_dtype)->default_value("f32"), "KV cache dtype: f32 | f16 | bf16")(
      "block-size", po::value(&c.block_size)->default_value(c.block_size), "tokens per KV block")(
      "no-paged-kv", "contiguous KV: reserve max_model_len per sequence (implies no prefix cache)")(
      "no-prefix-cache", "disable prefix caching")(
      "no-chunked-prefill", "schedule each prompt whole")("static-batching",
                                                          "admit a batch and run it to completion")(
      "max-num-seqs", po::value(&c.max_num_seqs)->default_value(c.max_num_seqs), "")(
      "max-num-batched-tokens",
      po::value(&c.max_num_batched_tokens)->default_value(c.max_num_batched_tokens),
      "")("max-model-len", po::value(&c.max_model_len)->default_value(0), "0: the model's")(
      "fit-max-model-len", "lower max_model_len to what the KV pool holds instead of refusing")(
      "num-kv-blocks", po::value(&c.num_kv_blocks)->default_value(0), "0: from --kv-cache-mib")(
      "threads", po::value(&c.num_threads)->default_value(0), "0: all hardware threads; max 1024")(
      "backend", po::value(&c.backend)->default_value(c.backend), "cpu | cuda (one GPU)")(
      "cuda-gemm", po::value(&c.cuda_gemm)->default_value(c.cuda_gemm),
      "cuda backend's GEMM: cublas | infergate (ours; f16/bf16 weights)")(
      "host-sampling", "cuda backend: copy logits to the host and sample there")(
      "cuda-graphs", "cuda backend: replay decode steps from CUDA graphs")(
      "tensor-parallel", po::value(&c.tensor_parallel)->default_value(1),
      "ranks splitting each layer (Megatron); run under mpirun")(
      "pipeline-parallel", po::value(&c.pipeline_parallel)->default_value(1),
      "pipeline stages (layers split evenly); run under mpirun")(
      "expert-parallel", po::value(&c.expert_parallel)->default_value(1),
      "ranks splitting the experts of a MoE model; run under mpirun")(
      "micro-batches", po::value(&c.pipeline_micro_batches)->default_value(0),
      "micro-batches per step in the pipeline; 0: one per stage")(
      "pipeline-layers", po::value<std::string>(),
      "layers per pipeline stage, e.g. 4,2 (default: an even split)")(
      "comm-timeout", po::value(&c.comm_timeout_s)->default_value(c.comm_timeout_s),
      "seconds before a collective is declared stuck (a dead rank)");
}

void apply_engine_switches(const po::variables_map& vm, EngineConfig& c,
                           const std::string& kv_dtype) {
  // Only these hold a KV cache: q8_0 is a weight format, so parse_dtype()'s list would mislead.
  if (kv_dtype != "f32" && kv_dtype != "f16" && kv_dtype != "bf16") {
    throw std::invalid_argument("--kv-dtype " + kv_dtype.substr(0, 40) +
                                ": not a KV cache dtype (allowed: f32, f16, bf16)");
  }
  c.kv_cache_dtype = parse_dtype(kv_dtype);
  if (!(c.comm_timeout_s > 0 && c.comm_timeout_s <= kMaxTimeoutS)) {
    std::ostringstream value;
    value << c.comm_timeout_s;
    throw std::invalid_argument("--comm-timeout " + value.str() +
                                ": out of range (allowed: > 0 and <= " +
                                std::to_string(int64_t(kMaxTimeoutS)) + " seconds)");
  }
  if (vm.count("no-paged-kv")) c.paged_kv = false, c.prefix_caching = false;
  if (vm.count("no-prefix-cache")) c.prefix_caching = false;
  if (vm.count("no-chunked-prefill")) c.chunked_prefill = false;
  if (vm.count("static-batching")) c.continuous_batching = false;
  if (vm.count("fit-max-model-len")) c.fit_max_model_len = true;
  if (vm.count("host-sampling")) c.cuda_sampling = false;
  if (vm.count("cuda-graphs")) c.cuda_graphs = true;
  if (vm.count("pipeline-layers")) {
    c.pipeline_stage_layers =
        parse_int_list(vm["pipeline-layers"].as<std::string>(), "--pipeline-layers");
  }
}

}  // namespace infergate

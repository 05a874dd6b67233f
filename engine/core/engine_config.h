// Every switch of the engine in one struct, each with its documented default (docs/engine.md).
// Each optimization is a switch because the suite exists to measure what it buys; the
// switched-off path is a real alternative, not a degraded copy.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/tensor.h"

namespace infergate {

// Where the forward runs (docs/cuda.md): kernels/cpu, or one GPU (device 0).
enum class Backend { kCpu, kCuda };
// kAuto keeps the loaded dtype; the others convert every matrix at load.
// The block formats from kQ8_0 on (validate() relies on the order).
enum class WeightDtype {
  kAuto,
  kF32,
  kF16,
  kBf16,
  kQ8_0,
  kQ4_0,
  kQ4_1,
  kQ4_K,
  kW8A8,
  kQ5_0,
  kQ5_1,
  kQ2_K,
  kQ3_K,
  kQ5_K,
  kQ6_K,
  kIq4_Nl,
  kIq4_Xs,
  kFp8
};
// The cuda backend's projections: cuBLAS, or our tensor-core GEMM (f16/bf16 weights).
enum class CudaGemm { kCublas, kInfergate };
// Speculative decoding's proposer (docs/speculative.md): none, n-gram prompt lookup, a draft
// model (speculative_draft_model), or the target's own first layers / quantized copy (self).
enum class SpeculativeMethod { kNone, kNgram, kDraftModel, kSelf };

// Names as the workload file and the flags spell them; each parse_*() throws
// std::invalid_argument in validate()'s words ("engine config: FIELD = VALUE (allowed: ...)").
const std::vector<std::string>& backend_names();
const std::vector<std::string>& weight_dtype_names();
const std::vector<std::string>& cuda_gemm_names();
const std::vector<std::string>& speculative_method_names();
const std::string& backend_name(Backend backend);
const std::string& weight_dtype_name(WeightDtype dtype);
const std::string& cuda_gemm_name(CudaGemm gemm);
const std::string& speculative_method_name(SpeculativeMethod method);
Backend parse_backend(const std::string& name);
WeightDtype parse_weight_dtype(const std::string& name);
CudaGemm parse_cuda_gemm(const std::string& name);
SpeculativeMethod parse_speculative_method(const std::string& name);

// Every field's name, default, range, flag and doc are declared once more in
// engine_config_fields.cc, which the workload reader/writer, validate(), the CLI and the docs
// tables all follow.
struct EngineConfig {
  // Far above any core count worth running on, far below what makes thread creation fail.
  static constexpr int kMaxNumThreads = 1024;

  WeightDtype weight_dtype = WeightDtype::kAuto;
  DType kv_cache_dtype = DType::kF32;  // f32 | f16 | bf16
  int block_size = 16;                 // tokens per KV block
  // false: a contiguous cache that reserves max_model_len tokens per sequence.
  bool paged_kv = true;
  bool prefix_caching = true;  // needs paged_kv
  // Structured output proposes the bytes its grammar forces as draft tokens (jump-forward).
  bool grammar_jump_forward = true;
  bool chunked_prefill = true;
  // false: static batching, which admits a batch and runs it to completion.
  bool continuous_batching = true;
  int max_num_seqs = 64;
  int max_num_batched_tokens = 2048;
  int max_model_len = 0;  // 0: the model's max_position_embeddings
  // true: a KV pool too small for one max_model_len sequence lowers max_model_len to what it
  // holds (and says so) instead of refusing to start.
  bool fit_max_model_len = false;
  int64_t kv_cache_bytes = int64_t(256) << 20;  // KV pool size, unless num_kv_blocks is set
  int num_kv_blocks = 0;
  int num_threads = 0;  // 0: all hardware threads; at most kMaxNumThreads
  uint64_t seed = 0;    // seeds unseeded requests' sampling streams

  Backend backend = Backend::kCpu;
  CudaGemm cuda_gemm = CudaGemm::kCublas;
  // The cuda backend samples on the GPU (only the tokens leave the device); false copies every
  // sampling row's logits to the host and samples there, as the CPU backend does.
  bool cuda_sampling = true;
  // The cuda backend replays decode steps from CUDA graphs, one per padded batch size (dense
  // models only; docs/cuda.md).
  bool cuda_graphs = false;

  // Distribution over MPI ranks (docs/distributed.md): world size = pipeline_parallel x
  // max(tensor_parallel, expert_parallel); tensor and expert parallelism share one group of
  // ranks per pipeline stage, so each is 1 or that group's size.
  int tensor_parallel = 1;
  int pipeline_parallel = 1;
  int expert_parallel = 1;
  int pipeline_micro_batches = 0;  // micro-batches a step is split into; 0: pipeline_parallel
  // Layers of each pipeline stage, in order (their sum: the model's layers); empty: an even
  // split, the first stages taking one more when the layers do not divide.
  std::vector<int> pipeline_stage_layers;
  double comm_timeout_s = 60;  // deadline of every collective (a dead rank ends the job)

  // Regression injection (docs/engine.md): each step that decodes at least one sequence
  // busy-waits this long inside its execute phase, as a slower kernel would. For testing gates,
  // bisect and users' pipelines; 0 (off) in every real benchmark.
  int64_t debug_inject_decode_delay_us = 0;
  // Fault injection (docs/engine.md): every Nth step that executes a batch throws inside its
  // execute phase, as a failing kernel or allocation would (0: off); with `fatal`, after the
  // scheduler's update instead, where the engine's state can no longer be trusted.
  int64_t debug_inject_step_error_every = 0;
  bool debug_inject_step_error_fatal = false;

  // Speculative decoding (docs/speculative.md): each decode step of a request also
  // verifies up to speculative_num_tokens proposed tokens (n-gram: the last
  // prompt_lookup_max..prompt_lookup_min tokens matched earlier in the request's text).
  SpeculativeMethod speculative_method = SpeculativeMethod::kNone;
  int speculative_num_tokens = 4;
  int prompt_lookup_min = 1;
  int prompt_lookup_max = 4;
  // draft_model: a preset name (with speculative_draft_seed), a .gguf file or a safetensors
  // directory, on the target's vocabulary. self: the target's first speculative_draft_layers
  // layers (0: all). Both: the draft's weights converted to speculative_draft_weight_dtype.
  std::string speculative_draft_model;
  uint64_t speculative_draft_seed = 0;
  int speculative_draft_layers = 0;
  WeightDtype speculative_draft_weight_dtype = WeightDtype::kAuto;
  // Proposal length per request adapts to its acceptance (docs/speculative.md), between 1 and
  // speculative_num_tokens.
  bool speculative_adaptive = false;

  int parallel_group_size() const { return std::max(tensor_parallel, expert_parallel); }
  int world_size() const { return pipeline_parallel * parallel_group_size(); }
  bool on_cuda() const { return backend == Backend::kCuda; }
  bool speculates() const { return speculative_method != SpeculativeMethod::kNone; }
  bool drafts_with_model() const {
    return speculative_method == SpeculativeMethod::kDraftModel ||
           speculative_method == SpeculativeMethod::kSelf;
  }

  // Throws std::invalid_argument naming the field, its value and what is allowed: first each
  // field's own range (from the field table), then the rules that join fields.
  void validate() const;
};

}  // namespace infergate

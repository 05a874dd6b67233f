// How long one engine step takes on simulated hardware: every operator of every layer on the
// roofline (roofline.h) at the calibration's efficiencies, the collectives of tensor, expert and
// pipeline parallelism on the link model (link_model.h), the pipeline's micro-batches as GPipe
// runs them within a step, and the fixed costs the calibration fitted. docs/simulator.md,
// "The cost model", writes each term out.
#pragma once

#include <map>
#include <span>
#include <string>
#include <vector>

#include "engine/model/model_config.h"
#include "sim/calibration.h"
#include "sim/hardware_spec.h"
#include "sim/precision.h"
#include "sim/roofline.h"

namespace infergate {

// How the model is spread: tensor and expert parallelism share one group of devices per
// pipeline stage (each 1 or the group's size), as the engine's ranks do.
struct SimLayout {
  int tensor_parallel = 1;
  int pipeline_parallel = 1;
  int expert_parallel = 1;
  int micro_batches = 1;  // a step's batch cut into this many for the pipeline
  int threads = 0;        // cpu: worker threads per rank (0: the host's cores)
  // cpu: processes sharing the host's cores, this layout's and other replicas' (0: devices()).
  int host_ranks = 0;

  int group() const {
    return tensor_parallel > expert_parallel ? tensor_parallel : expert_parallel;
  }
  int devices() const { return pipeline_parallel * group(); }
};

// One scheduled sequence of a step: tokens computed now, tokens already in its KV cache, and
// logit rows it needs (1 when it samples, plus draft tokens; 0 for a prefill chunk mid-prompt).
struct SequenceWork {
  double new_tokens = 0;
  double context_before = 0;
  double logit_rows = 0;
};

struct StepTime {
  double seconds = 0;
  double compute_s = 0, communication_s = 0, overhead_s = 0;
  // Operator -> seconds on the critical path's devices, summed over layers and micro-batches
  // (qkv_proj, attention, o_proj, ffn, moe_router, moe_experts, lm_head, all_reduce,
  // all_to_all, send_recv).
  std::map<std::string, double> by_operator;
};

class StepCostModel {
 public:
  // Throws std::invalid_argument for a layout the model cannot take (heads or experts that
  // the group does not divide, more stages than layers).
  StepCostModel(ModelConfig model, HardwareSpec hardware, Calibration calibration, SimLayout layout,
                Precision precision);

  StepTime step(std::span<const SequenceWork> sequences) const;
  // cpu: the processes now sharing the host's cores (SimLayout::host_ranks); from the next step.
  void share_host(int host_ranks);

  const ModelConfig& model() const { return model_; }
  const HardwareSpec& hardware() const { return hardware_; }
  const Calibration& calibration() const { return calibration_; }
  const SimLayout& layout() const { return layout_; }
  const Precision& precision() const { return precision_; }
  // Layers of each pipeline stage (the first stages take one more when they do not divide).
  const std::vector<int>& stage_layers() const { return stage_layers_; }

 private:
  // One micro-batch through one stage: compute and collectives, added to `time`.
  double stage_seconds(std::span<const SequenceWork> batch, int stage, StepTime& time) const;
  double op(const Work& work, double tokens) const;
  double layer_seconds(std::span<const SequenceWork> batch, double tokens, StepTime& time) const;
  double moe_seconds(double tokens, StepTime& time) const;

  ModelConfig model_;
  HardwareSpec hardware_;
  Calibration calibration_;
  SimLayout layout_;
  Precision precision_;
  double peak_flops_;  // one device's (a CPU's ranks share the host's)
  double bandwidth_;
  std::vector<int> stage_layers_;
};

// Contiguous runs of `sequences` with about equal token counts, at most `count` of them (as
// engine/parallel's split_micro_batches cuts a step).
std::vector<std::span<const SequenceWork>> split_micro_batches(
    std::span<const SequenceWork> sequences, int count);

}  // namespace infergate

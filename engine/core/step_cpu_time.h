// CPU time the engine's own threads spend in steps (the stepping thread and the CPU backend's
// pool), by what each step did. Unlike wall time it leaves out what a busy machine adds: time
// waiting for a core and time a hypervisor stole. That makes "CPU per decoded token" a
// low-noise figure for the gates (docs/metrics.md, "Engine CPU time").
#pragma once

#include <cstdint>
#include <optional>

#include "engine/core/hardware_counters.h"
#include "engine/core/scheduler.h"

namespace infergate {

// A step's scheduled tokens by kind, read before the step runs (it advances the sequences).
struct StepTokens {
  int64_t decode = 0;   // tokens of sequences past their prompt
  int64_t prefill = 0;  // prompt tokens (including a preempted sequence's recompute)
};
StepTokens step_tokens(const SchedulerOutput& out);

// A decode step's CPU time as a line in its batch size: a fixed part (reading the weights, once
// per step) and a part per decoded token.
struct DecodeCostLine {
  double fixed_ns = 0, per_token_ns = 0;
  double single_step_ns() const { return fixed_ns + per_token_ns; }  // a batch of one
};

struct StepCpuTime {
  int64_t total_ns = 0;  // every step
  // Steps of one kind only: mixed steps (a prefill chunk beside decodes) are in total_ns alone.
  int64_t decode_ns = 0, decode_tokens = 0;
  int64_t prefill_ns = 0, prefill_tokens = 0;

  void add(int64_t ns, const StepTokens& tokens);
  // The least-squares line through the decode-only steps (batch size, CPU time). CPU per
  // decoded token falls as batches grow, and a slow machine grows them (requests pile up), so
  // the line's value at one sequence is the figure to compare across runs. nullopt until the
  // steps span two batch sizes.
  std::optional<DecodeCostLine> decode_cost_line() const;

 private:
  int64_t fit_steps_ = 0;
  double fit_x_ = 0, fit_xx_ = 0, fit_y_ = 0, fit_xy_ = 0;  // x: tokens, y: ns
};

// Hardware counts of the same steps, where the kernel offers them (hardware_counters.h). A
// decode-only step's instructions, unlike its CPU time, do not depend on a neighbour's load.
struct StepCounts {
  int64_t instructions = 0, cycles = 0;                                   // every step
  int64_t decode_instructions = 0, decode_cycles = 0, decode_tokens = 0;  // decode-only steps

  void add(const CounterReading& delta, const StepTokens& tokens);
};

}  // namespace infergate

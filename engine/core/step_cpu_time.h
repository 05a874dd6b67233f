// CPU time the engine's own threads spend in steps (the stepping thread and the CPU backend's
// pool), by what each step did. Unlike wall time it leaves out what a busy machine adds: time
// waiting for a core and time a hypervisor stole. That makes "CPU per decoded token" a
// low-noise figure for the gates (docs/metrics.md, "Engine CPU time").
#pragma once

#include <cstdint>

#include "engine/core/scheduler.h"

namespace infergate {

// A step's scheduled tokens by kind, read before the step runs (it advances the sequences).
struct StepTokens {
  int64_t decode = 0;   // tokens of sequences past their prompt
  int64_t prefill = 0;  // prompt tokens (including a preempted sequence's recompute)
};
StepTokens step_tokens(const SchedulerOutput& out);

struct StepCpuTime {
  int64_t total_ns = 0;  // every step
  // Steps of one kind only: mixed steps (a prefill chunk beside decodes) are in total_ns alone.
  int64_t decode_ns = 0, decode_tokens = 0;
  int64_t prefill_ns = 0, prefill_tokens = 0;

  void add(int64_t ns, const StepTokens& tokens);
};

}  // namespace infergate

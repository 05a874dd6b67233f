#include "engine/core/step_cpu_time.h"

namespace infergate {

StepTokens step_tokens(const SchedulerOutput& out) {
  StepTokens t;
  for (const ScheduledSequence& s : out.scheduled) {
    const bool decoding = s.seq->num_computed_tokens >= s.seq->num_prompt_tokens;
    (decoding ? t.decode : t.prefill) += s.num_new_tokens;
  }
  return t;
}

void StepCpuTime::add(int64_t ns, const StepTokens& tokens) {
  total_ns += ns;
  if (tokens.prefill == 0 && tokens.decode > 0) {
    decode_ns += ns;
    decode_tokens += tokens.decode;
  } else if (tokens.decode == 0 && tokens.prefill > 0) {
    prefill_ns += ns;
    prefill_tokens += tokens.prefill;
  }
}

}  // namespace infergate

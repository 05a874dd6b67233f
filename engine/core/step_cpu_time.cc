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
    const double x = double(tokens.decode), y = double(ns);
    ++fit_steps_;
    fit_x_ += x;
    fit_xx_ += x * x;
    fit_y_ += y;
    fit_xy_ += x * y;
  } else if (tokens.decode == 0 && tokens.prefill > 0) {
    prefill_ns += ns;
    prefill_tokens += tokens.prefill;
  }
}

std::optional<DecodeCostLine> StepCpuTime::decode_cost_line() const {
  const double n = double(fit_steps_);
  const double spread = n * fit_xx_ - fit_x_ * fit_x_;  // n^2 times the variance of x
  if (fit_steps_ < 2 || spread <= 1e-9 * n * fit_xx_) return std::nullopt;
  DecodeCostLine line;
  line.per_token_ns = (n * fit_xy_ - fit_x_ * fit_y_) / spread;
  line.fixed_ns = (fit_y_ - line.per_token_ns * fit_x_) / n;
  return line;
}

void StepCounts::add(const CounterReading& delta, const StepTokens& tokens) {
  instructions += delta.instructions;
  cycles += delta.cycles;
  if (tokens.prefill == 0 && tokens.decode > 0) {
    decode_instructions += delta.instructions;
    decode_cycles += delta.cycles;
    decode_tokens += tokens.decode;
  }
}

}  // namespace infergate

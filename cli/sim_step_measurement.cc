#include "cli/sim_step_measurement.h"

#include <algorithm>
#include <optional>
#include <string>

#include "common/util/clock.h"
#include "engine/core/engine.h"

namespace infergate {

namespace {

SamplingParams fixed(int max_tokens) {
  SamplingParams p;
  p.max_tokens = max_tokens;
  p.ignore_eos = true;
  return p;
}

std::vector<int32_t> prompt(int length, int salt, int vocab) {
  std::vector<int32_t> p;
  for (int i = 0; i < length; ++i)
    p.push_back(int32_t(3 + (i * 7919 + salt * 104729) % (vocab - 3)));
  return p;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

class StepTimer {
 public:
  StepTimer(const ModelWeights& weights, const EngineConfig& config)
      : weights_(weights), config_(config) {
    config_.prefix_caching = false;  // every prompt computed, never a hit
    config_.max_num_batched_tokens = std::max(config_.max_num_batched_tokens, 2048);
    config_.max_num_seqs = std::max(config_.max_num_seqs, 64);
    config_.kv_cache_bytes = std::max<int64_t>(config_.kv_cache_bytes, int64_t(1) << 30);
    config_.num_kv_blocks = 0;  // every batch of the grid fits without preemption
  }

  // One prompt of `tokens` in one step.
  std::optional<MeasuredStep> prefill(int tokens, int repetitions) {
    std::vector<double> times;
    for (int r = 0; r < repetitions; ++r) {
      Engine engine(config_, weights_);
      warm_up(engine);
      engine.add_request("p", prompt(tokens, r, vocab()), fixed(1));
      const auto t = timed_step(engine, tokens);
      if (t) times.push_back(*t);
    }
    if (times.empty()) return std::nullopt;
    return MeasuredStep{{{double(tokens), 0, 1}}, median(times), "prefill"};
  }

  // `batch` sequences of `context` tokens each decoding one token; with `chunk` > 0, a new
  // prompt of that many tokens in the same step.
  std::optional<MeasuredStep> decode(int batch, int context, int chunk, int repetitions) {
    Engine engine(config_, weights_);
    warm_up(engine);
    const int prefill_steps = batch * context / config_.max_num_batched_tokens + 1;
    const int max_tokens = prefill_steps + 2 + repetitions * 2;
    const int64_t steps_before = engine.stats().num_steps;
    for (int i = 0; i < batch; ++i) {
      engine.add_request("d" + std::to_string(i), prompt(context, i, vocab()), fixed(max_tokens));
    }
    // Prefill them all and take one decode step, untimed. The first to finish its prefill
    // decodes while the others still prefill, so each may answer as many tokens as there are
    // prefill steps before the batch decodes together; should the batch still never decode as
    // one (or finish first), the shape is dropped rather than waited for.
    while (engine.stats().num_generated_tokens < batch ||
           engine.stats().last_step_tokens != batch) {
      if (!engine.has_unfinished() ||
          engine.stats().num_steps - steps_before > max_tokens + prefill_steps) {
        return std::nullopt;
      }
      engine.step();
    }
    std::vector<double> times;
    int done = 0;
    for (int r = 0; r < repetitions; ++r) {
      if (chunk > 0)
        engine.add_request("c" + std::to_string(r), prompt(chunk, 1000 + r, vocab()), fixed(1));
      const auto t = timed_step(engine, batch + chunk);
      if (t) times.push_back(*t);
      done = int(engine.stats().num_generated_tokens) / batch;
    }
    if (times.empty()) return std::nullopt;
    MeasuredStep s;
    for (int i = 0; i < batch; ++i) s.sequences.push_back({1, double(context + done), 1});
    if (chunk > 0) s.sequences.push_back({double(chunk), 0, 1});
    s.seconds = median(times);
    s.kind = chunk > 0 ? "mixed" : "decode";
    return s;
  }

 private:
  int vocab() const { return weights_.config.vocab_size; }

  // The first forward allocates the workspace: not part of any measured step.
  void warm_up(Engine& engine) {
    engine.add_request("warm", prompt(64, 999, vocab()), fixed(2));
    while (engine.has_unfinished()) engine.step();
  }

  // The step's time when it scheduled exactly `tokens`.
  std::optional<double> timed_step(Engine& engine, int tokens) {
    const int64_t before = engine.stats().total_scheduled_tokens;
    const int64_t t0 = now_ns();
    engine.step();
    const double seconds = double(now_ns() - t0) * 1e-9;
    if (engine.stats().total_scheduled_tokens - before != tokens) return std::nullopt;
    return seconds;
  }

  const ModelWeights& weights_;
  EngineConfig config_;
};

}  // namespace

std::vector<MeasuredStep> measure_engine_steps(const ModelWeights& weights,
                                               const EngineConfig& config, const StepGrid& grid) {
  StepTimer timer(weights, config);
  std::vector<MeasuredStep> steps;
  auto keep = [&](std::optional<MeasuredStep> s) {
    if (s) steps.push_back(std::move(*s));
  };
  for (int tokens : grid.prefill_tokens) keep(timer.prefill(tokens, grid.repetitions));
  for (int context : grid.decode_contexts) {
    for (int batch : grid.decode_batches) keep(timer.decode(batch, context, 0, grid.repetitions));
  }
  for (const auto& [batch, chunk] : grid.mixed) {
    keep(timer.decode(batch, grid.decode_contexts.front(), chunk, grid.repetitions));
  }
  return steps;
}

}  // namespace infergate

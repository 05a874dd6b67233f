// A real Scheduler over a real KV cache manager, stepped the way Engine::step() steps it
// (schedule, one sampled token per sequence that samples, update) with no model: the
// scheduler tests pin its decisions exactly on hand-built sequences.
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/scheduler.h"
#include "engine/kv/kv_cache_manager.h"

namespace infergate::testing {

// Small blocks keep the block arithmetic of the tests readable.
inline constexpr int kRigBlockSize = 4;
// What every sampling sequence gets unless a step says otherwise: neither EOS (2) nor a
// prompt token (prompts count up from 100 or more).
inline constexpr int32_t kSampledToken = 5;

// `n` distinct tokens starting at `first`.
inline std::vector<int32_t> counting_prompt(int n, int32_t first = 100) {
  std::vector<int32_t> prompt;
  for (int i = 0; i < n; ++i) prompt.push_back(first + i);
  return prompt;
}

// One step as the engine saw it, written as text so a mismatch prints the whole decision.
struct RigStep {
  std::string scheduled;  // "a:8 b:1*": id:num_new_tokens in schedule order, * where it samples
  std::string preempted;  // ids, in preemption order
  std::string finished;   // ids ended by schedule(), then those ended by update()
  int num_batched_tokens = 0;
};

class SchedulerRig {
 public:
  SchedulerRig(SchedulerConfig config, std::unique_ptr<KvCacheManager> kv)
      : config_(config), kv_(std::move(kv)), scheduler_(config_, *kv_) {}

  static SchedulerRig paged(int num_blocks, SchedulerConfig config = {},
                            bool prefix_caching = true) {
    return {config, make_paged_kv_cache_manager(num_blocks, kRigBlockSize, prefix_caching)};
  }
  static SchedulerRig contiguous(int num_blocks, SchedulerConfig config) {
    return {config,
            make_contiguous_kv_cache_manager(num_blocks, kRigBlockSize, config.max_model_len)};
  }

  // Fixed output lengths (ignore_eos), as the benchmarks run, unless a test says otherwise.
  Sequence& add(const std::string& id, std::vector<int32_t> prompt, int max_tokens,
                bool ignore_eos = true) {
    SamplingParams params;
    params.max_tokens = max_tokens;
    params.ignore_eos = ignore_eos;
    seqs_.push_back(std::make_unique<Sequence>(id, std::move(prompt), params, 1, 0));
    scheduler_.add(seqs_.back().get());
    return *seqs_.back();
  }
  // A prompt no other sequence of the rig shares, so no prefix hit blurs the arithmetic.
  Sequence& add(const std::string& id, int prompt_tokens, int max_tokens) {
    return add(id, counting_prompt(prompt_tokens, 1000 * int32_t(seqs_.size() + 1)), max_tokens);
  }

  // schedule() then update() with `token` for every sampling sequence, checking what must
  // hold after any step: the budget and max_num_seqs are kept and the pool is consistent.
  RigStep step(int32_t token = kSampledToken) {
    const SchedulerOutput out = scheduler_.schedule();
    RigStep s;
    s.num_batched_tokens = out.num_batched_tokens;
    int sum = 0;
    size_t samples = 0;
    for (const ScheduledSequence& sched : out.scheduled) {
      REQUIRE(sched.num_new_tokens > 0);
      sum += sched.num_new_tokens;
      samples += sched.samples();
      append(s.scheduled, sched.seq->id + ":" + std::to_string(sched.num_new_tokens) +
                              (sched.samples() ? "*" : ""));
    }
    REQUIRE(sum == out.num_batched_tokens);
    REQUIRE(out.num_batched_tokens <= config_.max_num_batched_tokens);
    REQUIRE(int(scheduler_.num_running()) <= config_.max_num_seqs);
    for (const Sequence* seq : out.preempted) append(s.preempted, seq->id);
    for (const Sequence* seq : out.finished) append(s.finished, seq->id);
    for (const Sequence* seq :
         scheduler_.update(out, std::vector<std::vector<int32_t>>(samples, {token}))) {
      append(s.finished, seq->id);
    }
    kv_->check_invariants();
    return s;
  }

  // Steps until nothing is unfinished; a step that changes nothing fails at once.
  int run_to_end() {
    int steps = 0;
    for (; scheduler_.has_unfinished(); ++steps) {
      REQUIRE(steps < 10000);
      const RigStep s = step();
      if (s.scheduled.empty() && s.finished.empty()) FAIL("a step scheduled and finished nothing");
    }
    REQUIRE(kv_->usage() == 0.0);
    return steps;
  }

  Scheduler& scheduler() { return scheduler_; }
  KvCacheManager& kv() { return *kv_; }
  const std::vector<std::unique_ptr<Sequence>>& sequences() const { return seqs_; }

 private:
  static void append(std::string& list, const std::string& item) {
    if (!list.empty()) list += ' ';
    list += item;
  }

  SchedulerConfig config_;
  std::unique_ptr<KvCacheManager> kv_;
  Scheduler scheduler_;
  std::vector<std::unique_ptr<Sequence>> seqs_;
};

}  // namespace infergate::testing

// vLLM v1-style scheduler: one token budget per step shared by every sequence, running
// sequences first, then waiting ones in arrival order (FCFS). Chunked prefill, prefix hits,
// preemption by recompute and decode are all "tokens to catch up".
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "engine/kv/kv_cache_manager.h"
#include "engine/request/sequence.h"

namespace infergate {

struct SchedulerConfig {
  int max_num_seqs = 64;
  int max_num_batched_tokens = 2048;
  int max_model_len = 2048;
  bool chunked_prefill = true;
  bool continuous_batching = true;  // false: static batching
  int32_t eos_token_id = 2;
  int sliding_window = 0;  // the model's: > 0 frees the blocks behind each sequence's window
};

struct ScheduledSequence {
  Sequence* seq = nullptr;
  int num_new_tokens = 0;  // including the draft tokens
  // Speculative decoding: the first num_draft_tokens of seq->draft_tokens, computed after the
  // sequence's last token so that one pass verifies them (logits for each, plus the last).
  int num_draft_tokens = 0;
  // True when this step brings the sequence level with its last token: sample after it.
  bool samples() const {
    return seq->num_computed_tokens + num_new_tokens - num_draft_tokens == seq->num_tokens();
  }
  // Logit rows the sequence gets: one per draft token and one after its last token.
  int num_logit_rows() const { return samples() ? 1 + num_draft_tokens : 0; }
};

struct SchedulerOutput {
  std::vector<ScheduledSequence> scheduled;
  std::vector<Sequence*> preempted;
  // Ended by the scheduler: they can never be scheduled (more KV than the whole pool, or a
  // whole prompt above the token budget), so waiting for them would spin forever.
  std::vector<Sequence*> finished;
  int num_batched_tokens = 0;

  bool empty() const { return scheduled.empty(); }
};

class Scheduler {
 public:
  Scheduler(const SchedulerConfig& config, KvCacheManager& kv);

  // Queues a sequence (owned by the caller) at the back of the waiting queue.
  void add(Sequence* seq);
  SchedulerOutput schedule();
  // Advances scheduled sequences, appends sampled tokens (for each sampling sequence, in
  // schedule order, its accepted draft tokens and one more), finishes those that stop, frees
  // their blocks. KV written for rejected draft tokens is given up: the sequence's computed
  // tokens count only what was accepted, and blocks past its tokens return to the pool.
  // Returns the finished.
  std::vector<Sequence*> update(const SchedulerOutput& out,
                                const std::vector<std::vector<int32_t>>& sampled);
  // Removes a sequence wherever it is and frees its blocks (abort).
  void remove(Sequence* seq, FinishReason reason);

  size_t num_running() const { return running_.size(); }
  size_t num_waiting() const { return waiting_.size(); }
  bool has_unfinished() const { return !running_.empty() || !waiting_.empty(); }
  int64_t num_preemptions() const { return num_preemptions_; }

 private:
  // Sliding-window models: gives back the blocks no later query of seq can see.
  void release_behind_window(Sequence& seq);
  void schedule_running(SchedulerOutput& out, int& budget);
  void schedule_waiting(SchedulerOutput& out, int& budget);
  void preempt(Sequence* seq, SchedulerOutput& out);
  // Draft tokens to verify with `seq` this step, within `budget` (beyond its last token) and the
  // KV pool: none when allocating for them would fail. Allocates for the last token and them.
  int schedule_drafts(Sequence* seq, int budget);
  // Appends `tokens` to a sampling sequence up to the first that stops it; returns why.
  FinishReason append_sampled(Sequence& seq, const std::vector<int32_t>& tokens);
  // Finishes a sequence that cannot fit even alone: kLength once it has output (it filled the
  // pool, as it would fill max_model_len), kError with the numbers before that.
  void finish_unschedulable(Sequence* seq, int num_tokens, const std::string& limit,
                            SchedulerOutput& out);
  std::string kv_pool_limit() const;  // "the KV pool holds N (B blocks x S tokens)"
  FinishReason stop_reason(const Sequence& seq) const;

  SchedulerConfig config_;
  KvCacheManager& kv_;
  std::vector<Sequence*> running_;
  std::deque<Sequence*> waiting_;
  int64_t num_preemptions_ = 0;
};

}  // namespace infergate

#include "engine/core/scheduler.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "common/util/nvtx_range.h"

namespace infergate {

Scheduler::Scheduler(const SchedulerConfig& config, KvCacheManager& kv)
    : config_(config), kv_(kv) {}

void Scheduler::add(Sequence* seq) {
  seq->status = SequenceStatus::kWaiting;
  waiting_.push_back(seq);
}

SchedulerOutput Scheduler::schedule() {
  NvtxRange range("schedule");
  SchedulerOutput out;
  int budget = config_.max_num_batched_tokens;
  schedule_running(out, budget);
  // Like vLLM: no admissions in a step that had to preempt (memory is short).
  if (out.preempted.empty()) schedule_waiting(out, budget);
  out.num_batched_tokens = config_.max_num_batched_tokens - budget;
  return out;
}

void Scheduler::schedule_running(SchedulerOutput& out, int& budget) {
  for (size_t i = 0; i < running_.size() && budget > 0;) {
    Sequence* seq = running_[i];
    int num_new = seq->num_uncomputed_tokens();
    if (num_new == 1 && !seq->draft_tokens.empty()) {
      if (const int drafts = schedule_drafts(seq, budget - 1); drafts > 0) {
        out.scheduled.push_back({seq, 1 + drafts, drafts});
        budget -= 1 + drafts;
        ++i;
        continue;
      }
    }
    if (num_new > budget) {
      if (!config_.chunked_prefill) {
        ++i;
        continue;
      }
      num_new = budget;
    }
    bool scheduled = true;
    while (!kv_.allocate_slots(*seq, num_new, {})) {
      if (running_.size() == 1) {  // alone, every block its own: it can never grow
        finish_unschedulable(seq, seq->num_computed_tokens + num_new, kv_pool_limit(), out);
        scheduled = false;
        break;
      }
      Sequence* victim = running_.back();  // lowest priority: the latest arrival
      preempt(victim, out);
      if (victim == seq) {
        scheduled = false;
        break;
      }
    }
    if (!scheduled) break;
    out.scheduled.push_back({seq, num_new});
    budget -= num_new;
    ++i;
  }
}

void Scheduler::schedule_waiting(SchedulerOutput& out, int& budget) {
  // Static batching admits only into an empty engine, then runs that batch to completion.
  if (!config_.continuous_batching && !running_.empty()) return;
  while (!waiting_.empty() && budget > 0 && int(running_.size()) < config_.max_num_seqs) {
    Sequence* seq = waiting_.front();
    const PrefixHit hit = kv_.find_cached_prefix(*seq);
    int num_new = seq->num_tokens() - seq->num_computed_tokens - hit.num_tokens;
    if (!config_.chunked_prefill && num_new > config_.max_num_batched_tokens) {
      waiting_.pop_front();
      finish_unschedulable(seq, num_new,
                           "max_num_batched_tokens is " +
                               std::to_string(config_.max_num_batched_tokens) +
                               " and chunked_prefill is off",
                           out);
      continue;
    }
    if (num_new > budget) {
      if (!config_.chunked_prefill) break;
      num_new = budget;
    }
    if (!kv_.allocate_slots(*seq, num_new, hit)) {
      if (!running_.empty()) break;  // blocks come back as the running sequences finish
      // Nothing runs, so the whole pool is free (cached blocks are evictable): never.
      waiting_.pop_front();
      finish_unschedulable(seq, seq->num_computed_tokens + hit.num_tokens + num_new,
                           kv_pool_limit(), out);
      continue;
    }
    waiting_.pop_front();
    seq->status = SequenceStatus::kRunning;
    running_.push_back(seq);
    out.scheduled.push_back({seq, num_new});
    budget -= num_new;
  }
}

int Scheduler::schedule_drafts(Sequence* seq, int budget) {
  const int drafts = std::min(int(seq->draft_tokens.size()), budget);
  // Drafts are an option, never a reason to preempt: without room they wait for a later step.
  if (drafts <= 0 || !kv_.allocate_slots(*seq, 1 + drafts, {})) return 0;
  return drafts;
}

void Scheduler::preempt(Sequence* seq, SchedulerOutput& out) {
  running_.erase(std::find(running_.begin(), running_.end(), seq));
  kv_.free(*seq);
  seq->num_computed_tokens = 0;
  seq->clear_drafts();
  seq->status = SequenceStatus::kWaiting;
  ++seq->num_preemptions;
  ++num_preemptions_;
  waiting_.push_front(seq);
  out.preempted.push_back(seq);
}

std::string Scheduler::kv_pool_limit() const {
  const int64_t tokens = int64_t(kv_.num_blocks()) * kv_.block_size();
  return "the KV pool holds " + std::to_string(tokens) + " (" + std::to_string(kv_.num_blocks()) +
         " blocks x " + std::to_string(kv_.block_size()) + " tokens)";
}

void Scheduler::finish_unschedulable(Sequence* seq, int num_tokens, const std::string& limit,
                                     SchedulerOutput& out) {
  const bool has_output = seq->num_output_tokens() > 0;
  remove(seq, has_output ? FinishReason::kLength : FinishReason::kError);
  if (!has_output) {
    seq->error = "request '" + seq->id + "' can never be scheduled: it needs " +
                 std::to_string(num_tokens) + " tokens at once and " + limit;
  }
  out.finished.push_back(seq);
}

FinishReason Scheduler::stop_reason(const Sequence& seq) const {
  const int32_t last = seq.tokens.back();
  const auto& stops = seq.params.stop_token_ids;
  if (std::find(stops.begin(), stops.end(), last) != stops.end()) return FinishReason::kStop;
  if (!seq.params.ignore_eos && last == config_.eos_token_id) return FinishReason::kStop;
  if (seq.num_output_tokens() >= seq.params.max_tokens) return FinishReason::kLength;
  if (seq.num_tokens() >= config_.max_model_len) return FinishReason::kLength;
  return FinishReason::kNone;
}

FinishReason Scheduler::append_sampled(Sequence& seq, const std::vector<int32_t>& tokens) {
  for (int32_t t : tokens) {
    seq.tokens.push_back(t);
    const FinishReason reason = stop_reason(seq);
    if (reason != FinishReason::kNone) return reason;
  }
  return FinishReason::kNone;
}

std::vector<Sequence*> Scheduler::update(const SchedulerOutput& out,
                                         const std::vector<std::vector<int32_t>>& sampled) {
  std::vector<Sequence*> finished;
  size_t next_sample = 0;
  for (const ScheduledSequence& s : out.scheduled) {
    Sequence* seq = s.seq;
    if (!s.samples()) {
      seq->num_computed_tokens += s.num_new_tokens;
      kv_.cache_computed_blocks(*seq);
      release_behind_window(*seq);
      continue;
    }
    const std::vector<int32_t>& tokens = sampled.at(next_sample++);
    const int accepted = int(tokens.size()) - 1;  // draft tokens accepted before the last
    if (tokens.empty() || accepted > s.num_draft_tokens) {
      throw std::logic_error("scheduler update: " + std::to_string(tokens.size()) +
                             " tokens for a sequence with " + std::to_string(s.num_draft_tokens) +
                             " draft tokens");
    }
    // The KV of the last token and of the accepted drafts is the sequence's; the rest was for
    // rejected drafts.
    seq->num_computed_tokens += s.num_new_tokens - s.num_draft_tokens + accepted;
    const FinishReason reason = append_sampled(*seq, tokens);
    seq->num_computed_tokens = std::min(seq->num_computed_tokens, seq->num_tokens());
    seq->clear_drafts();
    kv_.cache_computed_blocks(*seq);
    if (reason != FinishReason::kNone) {
      remove(seq, reason);
      finished.push_back(seq);
    } else {
      if (s.num_draft_tokens > 0) kv_.trim(*seq);
      release_behind_window(*seq);
    }
  }
  return finished;
}

void Scheduler::release_behind_window(Sequence& seq) {
  if (config_.sliding_window > 0) kv_.release_behind_window(seq, config_.sliding_window);
}

void Scheduler::remove(Sequence* seq, FinishReason reason) {
  if (auto it = std::find(running_.begin(), running_.end(), seq); it != running_.end()) {
    running_.erase(it);
  } else if (auto w = std::find(waiting_.begin(), waiting_.end(), seq); w != waiting_.end()) {
    waiting_.erase(w);
  }
  kv_.free(*seq);
  seq->status = SequenceStatus::kFinished;
  seq->finish_reason = reason;
}

}  // namespace infergate

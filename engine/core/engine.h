// The engine's public API: add requests, step, stream outputs with per-token timestamps.
//
//   Engine::step()
//     Scheduler::schedule()   -> which sequences, how many tokens each (one token budget)
//     Executor::execute(out)  -> logits for the sequences that sample this step
//     sample_token()          -> next tokens (greedy, temperature, top-k, top-p, seeds)
//     Scheduler::update(...)  -> append tokens, finish/stop, free or cache blocks
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/results/parallel_record.h"
#include "common/util/clock.h"
#include "engine/core/engine_config.h"
#include "engine/core/executor.h"
#include "engine/core/kv_blocks.h"
#include "engine/core/scheduler.h"
#include "engine/core/step_cpu_time.h"
#include "engine/kv/kv_cache_manager.h"
#include "engine/model/model_weights.h"
#include "engine/request/sequence.h"

namespace infergate {

class DraftModel;

// A request the engine refuses; nothing about the engine's other requests changes.
class RequestError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A step failed where the engine's state can no longer be trusted (inside the scheduler, or in
// an executor whose ranks or device may now disagree): the engine must not step again.
class EngineFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What one request produced in one step (or its end).
struct RequestOutput {
  RequestId id;
  std::vector<int32_t> token_ids;       // new tokens this step
  std::vector<int64_t> token_times_ns;  // monotonic clock (clock.h), one per new token
  std::vector<TokenLogprobs> logprobs;  // one per new token when the request asked for them
  bool finished = false;
  FinishReason finish_reason = FinishReason::kNone;
  std::string error;  // why, with FinishReason::kError
  // With kError: the step that ran the request failed (not the request itself), so another
  // engine may well serve it (the router retries it or migrates its stream).
  bool step_failed = false;
  int num_prompt_tokens = 0;
  int num_output_tokens = 0;  // so far
  int num_cached_prompt_tokens = 0;
  int num_preemptions = 0;
};

struct EngineStats {
  MemoryLedger memory;
  double kv_usage = 0;  // fraction of KV blocks held
  int num_kv_blocks = 0;
  size_t num_running = 0;
  size_t num_waiting = 0;
  int64_t num_preemptions = 0;
  PrefixCacheStats prefix_cache;
  int64_t num_steps = 0;
  int last_step_tokens = 0;  // tokens scheduled in the latest step
  int64_t total_scheduled_tokens = 0;
  int64_t num_generated_tokens = 0;
  // Where the steps' time went (monotonic ns, summed over steps): the report's step breakdown.
  int64_t schedule_ns = 0, execute_ns = 0, sample_ns = 0, update_ns = 0;
  int64_t injected_delay_ns = 0;  // part of execute_ns: debug.inject_decode_delay_us
  // Speculative decoding (docs/speculative.md), vLLM's spec_decode counters: verifications
  // (a sequence with draft tokens in a step), draft tokens verified, and those accepted, in
  // all and at each draft position (index 0: the first draft token).
  bool speculative = false;        // the engine proposes draft tokens (speculative.method)
  std::string speculative_method;  // its name, when it does
  int64_t spec_num_drafts = 0;
  int64_t spec_num_draft_tokens = 0;
  int64_t spec_num_accepted_tokens = 0;
  std::vector<int64_t> spec_accepted_per_position;
  // Time spent proposing (the n-gram scan, or the draft model's forwards), ns, and the passes
  // in which a sequence sampled (one per sequence per step that gave it tokens): with
  // num_generated_tokens, the tokens one target pass gave a sequence.
  int64_t spec_propose_ns = 0;
  int64_t num_sampling_passes = 0;
  // Structured output's jump-forward: tokens the grammar forced, proposed as drafts, and those
  // the target accepted (counted apart from speculative decoding's).
  int64_t grammar_forced_drafted = 0;
  int64_t grammar_forced_accepted = 0;
  // Token masks of structured output applied to rows (cached or computed), and their time, ns.
  int64_t grammar_mask_ns = 0;
  int64_t grammar_masks = 0;
  // The engine threads' CPU time in steps; nullopt when the executor's work runs elsewhere.
  std::optional<StepCpuTime> cpu;
  // With `cpu`: the steps' hardware counts, or why the kernel gives none.
  std::optional<StepCounts> hardware;
  std::string hardware_unavailable;
  std::optional<ParallelRecord>
      parallel;  // multi-rank and simulated executors'; absent on one rank
};

// What a simulation replaces (sim/, docs/simulator.md); the defaults are a real run's.
struct EngineEnvironment {
  // The clock arrivals, step phases and tokens are stamped with (ns); null: the monotonic
  // clock (common/util/clock.h). A simulated executor advances its own virtual clock.
  std::function<int64_t()> clock;
  // Builds the executor for the planned KV pool instead of the one the config names (local,
  // multi-rank or cuda); the pool is then not held to this machine's memory.
  std::function<std::unique_ptr<Executor>(const ModelWeights&, int num_kv_blocks)> executor;
};

struct GenerateResult {
  std::vector<int32_t> token_ids;
  FinishReason finish_reason = FinishReason::kNone;
};

class Engine {
 public:
  // Takes the weights (converted to config.weight_dtype if it is not "auto"). Throws
  // std::invalid_argument for a bad config, a KV pool above the machine's memory, or one that
  // cannot hold a max_model_len sequence (unless config.fit_max_model_len, which lowers
  // max_model_len to fit and says so on stderr).
  Engine(EngineConfig config, ModelWeights weights, EngineEnvironment environment = {});
  ~Engine();

  // Queues a request. Throws RequestError (empty prompt, prompt not shorter than
  // max_model_len, token id outside the vocabulary, bad sampling params, duplicate id).
  void add_request(const RequestId& id, std::vector<int32_t> prompt, SamplingParams params);
  // Runs one scheduling step; returns every request's new tokens and every finish. A request
  // that can never be scheduled ends here with FinishReason::kError (or kLength once it has
  // output) rather than waiting forever. When the batch's execution throws (a kernel, an
  // allocation) on an executor that survives it, the batch's requests end with kError and the
  // engine goes on; any other failure throws EngineFailure.
  std::vector<RequestOutput> step();
  // Stops a request and frees its blocks; its final output comes from the next step().
  // False if the id is unknown or already finished.
  bool abort(const RequestId& id);
  bool has_unfinished() const;

  // Prefill/decode handoff between engines of the same model, block size and KV dtype (local
  // CPU executor, prefix caching on). cached_prefix_blocks: how many of `tokens`' leading full
  // blocks this engine holds in its prefix cache. export_prefix_kv: their KV from block
  // `first_block` on (none when fewer are cached). import_prefix_kv: adopts such blocks as cached
  // here, so a request whose prompt starts with `tokens` computes only the rest; blocks already
  // cached here are not written again, and a block before `first_block` that is not cached here
  // ends the import there. Returns the blocks written. Both throw std::logic_error for an
  // executor that cannot, and import throws std::invalid_argument for blocks of another size.
  int cached_prefix_blocks(std::span<const int32_t> tokens) const;
  size_t kv_block_nbytes() const;  // one block's KV, every layer's K and V
  KvBlocks export_prefix_kv(std::span<const int32_t> tokens, int first_block = 0) const;
  int import_prefix_kv(std::span<const int32_t> tokens, const KvBlocks& blocks);

  // Runs prompts to completion (ids "generate-N") and returns their tokens in order.
  std::vector<GenerateResult> generate(const std::vector<std::vector<int32_t>>& prompts,
                                       const SamplingParams& params);

  EngineStats stats() const;
  const ModelConfig& model_config() const { return weights_.config; }
  // Config, vocabulary, embeddings and norms. The projection matrices live, packed, in the
  // executor and are dropped here (the caller's ModelWeights still has its own).
  const ModelWeights& weights() const { return weights_; }
  const EngineConfig& config() const { return config_; }
  int max_model_len() const { return max_model_len_; }
  // Checks KV bookkeeping invariants (tests): throws std::logic_error on a violation.
  void check_invariants() const;

 private:
  RequestOutput make_output(const Sequence& seq) const;
  // Executes and samples a non-empty schedule, appending the sampled tokens to `outputs`.
  void run_batch(const SchedulerOutput& out, int64_t t0, std::vector<RequestOutput>& outputs);
  // The forward and the sampling of `sampling`'s rows: one token list per sampling sequence.
  // `executed_ns`: when the forward ended (the sampling's start).
  std::vector<std::vector<int32_t>> execute_and_sample(
      const SchedulerOutput& out, const std::vector<const ScheduledSequence*>& sampling,
      int64_t& executed_ns);
  // The batch's execution threw `what`: its sequences end with kError (their blocks freed; none
  // was cached, as update() caches blocks only after they are computed).
  void fail_batch(const SchedulerOutput& out, const std::string& what,
                  std::vector<RequestOutput>& outputs);
  // debug.inject_step_error_every: whether this executed batch throws.
  bool injects_step_error() const;
  // The step's hardware counts (hardware_counters.h): read before and after it, opened at the
  // first step; dropped (and said to be unavailable) at the first read that fails.
  std::optional<CounterReading> read_hardware_counters();
  void add_hardware_counts(const std::optional<CounterReading>& before, const StepTokens& tokens);
  void drop_hardware_counters();
  // debug.inject_decode_delay_us, when the step decodes at least one sequence.
  void inject_decode_delay(const SchedulerOutput& out);
  // Host sampling: per sampling sequence, from its rows of `logits`, its accepted draft tokens
  // and one more token (verify_draft_token: greedy agreement or rejection sampling).
  std::vector<std::vector<int32_t>> sample_rows(
      const std::vector<float>& logits, const std::vector<const ScheduledSequence*>& sampling);
  // One sequence's tokens from its rows (1 + its draft tokens), its logits processed first and
  // its logprobs kept in Sequence::step_logprobs when its params ask.
  std::vector<int32_t> sample_sequence(const float* rows, const ScheduledSequence& s);
  // Whether a sequence of `sampling` needs its logits on the host (processing or logprobs), so
  // an executor that samples itself must hand them back this step.
  bool needs_host_logits(const std::vector<const ScheduledSequence*>& sampling) const;
  // Counts one verification of `drafts` draft tokens of which `accepted` held.
  void count_verification(int drafts, int accepted);
  // Proposes the draft tokens each of `seqs` verifies in its next decode step.
  void propose_drafts(const std::vector<Sequence*>& seqs);
  // Jump-forward: a sequence under a grammar that forces its next bytes, and has no other
  // drafts, gets them as draft tokens (verified like any: exact).
  void propose_forced_tokens(const std::vector<Sequence*>& seqs);
  // How many tokens to propose for `seq` (speculative_num_tokens, or its adapted length, within
  // max_model_len and max_tokens).
  int proposal_count(const Sequence& seq) const;
  // speculative.adaptive: 2 more after a verification whose drafts all stood, 1 fewer after a
  // rejection (Hugging Face's assisted generation heuristic).
  void adapt_proposal_length(Sequence& seq, int drafts, int accepted) const;
  std::vector<SamplingDraw> draws_for(const std::vector<const ScheduledSequence*>& sampling);

  int64_t now() const { return clock_ ? clock_() : now_ns(); }

  EngineConfig config_;
  ModelWeights weights_;
  std::function<int64_t()> clock_;
  int max_model_len_;
  std::unique_ptr<KvCacheManager> kv_;
  std::unique_ptr<Scheduler> scheduler_;
  std::unique_ptr<Executor> executor_;
  std::unique_ptr<DraftModel> draft_;  // speculative.method draft_model or self
  std::unordered_map<RequestId, std::unique_ptr<Sequence>> requests_;
  std::vector<RequestOutput> pending_;  // aborts reported by the next step
  uint64_t next_seed_;
  int64_t executed_batches_ = 0;  // for debug.inject_step_error_every
  int64_t generate_counter_ = 0;
  EngineStats counters_;
  // Opened at the first step, on the stepping thread and the executor's workers.
  std::optional<HardwareCounters> hardware_counters_;
  bool hardware_tried_ = false;
};

}  // namespace infergate

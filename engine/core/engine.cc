#include "engine/core/engine.h"

#include <algorithm>
#include <cstdio>

#include "common/util/clock.h"
#include "common/util/nvtx_range.h"
#include "engine/core/draft_model.h"
#include "engine/core/executor_registry.h"
#include "engine/core/kv_pool_plan.h"
#include "engine/core/local_executor.h"
#include "engine/request/grammar_mask.h"
#include "engine/request/logits_processors.h"
#include "engine/request/ngram_proposer.h"
#include "engine/request/sampler.h"

namespace infergate {

Engine::Engine(EngineConfig config, ModelWeights weights, EngineEnvironment environment)
    : config_(std::move(config)),
      weights_(std::move(weights)),
      clock_(std::move(environment.clock)),
      next_seed_(config_.seed) {
  config_.validate();
  weights_.config.validate();
  weights_.apply_weight_dtype(weight_dtype_name(config_.weight_dtype));
  // The cuda backend's pool lives on the GPU: its executor reports a failed allocation.
  const bool own_memory = !config_.on_cuda() && !environment.executor;
  const KvPoolPlan plan =
      plan_kv_pool(config_, weights_.config, own_memory ? physical_memory_bytes() : 0);
  if (!plan.notice.empty()) std::fprintf(stderr, "infergate: %s\n", plan.notice.c_str());
  max_model_len_ = plan.max_model_len;
  const int num_blocks = plan.num_blocks;
  if (!config_.chunked_prefill && config_.max_num_batched_tokens < max_model_len_) {
    throw std::invalid_argument(
        "engine config: max_num_batched_tokens (" + std::to_string(config_.max_num_batched_tokens) +
        ") must be >= max_model_len (" + std::to_string(max_model_len_) +
        ") when chunked_prefill is false, or a long prompt could never be scheduled");
  }
  if (config_.paged_kv) {
    kv_ = make_paged_kv_cache_manager(num_blocks, config_.block_size, config_.prefix_caching);
  } else {
    kv_ = make_contiguous_kv_cache_manager(num_blocks, config_.block_size, max_model_len_);
  }
  SchedulerConfig sc;
  sc.max_num_seqs = config_.max_num_seqs;
  sc.max_num_batched_tokens = config_.max_num_batched_tokens;
  sc.max_model_len = max_model_len_;
  sc.chunked_prefill = config_.chunked_prefill;
  sc.continuous_batching = config_.continuous_batching;
  sc.eos_token_id = weights_.config.eos_token_id;
  sc.sliding_window = weights_.config.sliding_window;
  scheduler_ = std::make_unique<Scheduler>(sc, *kv_);
  if (environment.executor) {
    executor_ = environment.executor(weights_, num_blocks);
  } else if (config_.world_size() > 1) {
    executor_ = make_executor(ExecutorKind::kParallel, weights_, config_, num_blocks);
  } else if (config_.on_cuda()) {
    executor_ = make_executor(ExecutorKind::kCuda, weights_, config_, num_blocks);
  } else {
    executor_ = std::make_unique<LocalExecutor>(weights_, num_blocks, config_.block_size,
                                                config_.kv_cache_dtype, config_.num_threads);
  }
  if (config_.drafts_with_model()) {
    // Enough blocks for every sequence the target holds, and each one's drafts.
    const int lookahead =
        (config_.speculative_num_tokens + config_.block_size) / config_.block_size;
    draft_ = std::make_unique<DraftModel>(
        draft_weights(config_, weights_), executor_->cpu_thread_pool(), config_.num_threads,
        num_blocks + config_.max_num_seqs * lookahead, config_.block_size, config_.kv_cache_dtype,
        config_.max_num_batched_tokens);
  }
  // The executor packed its own copies of the projections; holding these too would double
  // the weights' memory.
  weights_.drop_projection_matrices();
}

Engine::~Engine() = default;

void Engine::add_request(const RequestId& id, std::vector<int32_t> prompt, SamplingParams params) {
  auto fail = [&](const std::string& what) { throw RequestError("request '" + id + "': " + what); };
  if (requests_.count(id)) fail("duplicate request id");
  if (prompt.empty()) fail("empty prompt (at least one token is needed)");
  if (int(prompt.size()) >= max_model_len_) {
    fail("prompt has " + std::to_string(prompt.size()) + " tokens; max_model_len is " +
         std::to_string(max_model_len_) + " (the prompt must be shorter)");
  }
  const int vocab = weights_.config.vocab_size;
  for (size_t i = 0; i < prompt.size(); ++i) {
    if (prompt[i] < 0 || prompt[i] >= vocab) {
      fail("token id " + std::to_string(prompt[i]) + " at prompt position " + std::to_string(i) +
           " is outside the vocabulary [0, " + std::to_string(vocab) + ")");
    }
  }
  try {
    params.validate(vocab);
  } catch (const std::invalid_argument& e) {
    fail(e.what());
  }
  std::optional<GrammarMatcher> grammar_state;
  if (params.grammar) {
    grammar_state = params.grammar->start();
    const size_t resumed = size_t(std::clamp(params.grammar_resumed_tokens, 0, int(prompt.size())));
    for (size_t i = prompt.size() - resumed; i < prompt.size(); ++i) {
      if (!params.grammar->advance(*grammar_state, prompt[i])) {
        fail("resumed token " + std::to_string(prompt[i]) + " at prompt position " +
             std::to_string(i) + " does not follow the request's grammar");
      }
    }
  }
  const uint64_t seed = params.seed ? *params.seed : next_seed_++ * 0x9e3779b97f4a7c15ULL + 1;
  auto seq = std::make_unique<Sequence>(id, std::move(prompt), std::move(params), seed, now());
  seq->grammar_state = std::move(grammar_state);
  scheduler_->add(seq.get());
  requests_.emplace(id, std::move(seq));
}

RequestOutput Engine::make_output(const Sequence& seq) const {
  RequestOutput o;
  o.id = seq.id;
  o.finished = seq.status == SequenceStatus::kFinished;
  o.finish_reason = seq.finish_reason;
  o.error = seq.error;
  o.num_prompt_tokens = seq.num_prompt_tokens;
  o.num_output_tokens = seq.num_output_tokens();
  o.num_cached_prompt_tokens = seq.num_cached_prompt_tokens;
  o.num_preemptions = seq.num_preemptions;
  return o;
}

std::vector<RequestOutput> Engine::step() {
  NvtxRange range("step");
  std::vector<RequestOutput> outputs = std::move(pending_);  // aborts, already forgotten
  pending_.clear();
  const size_t first_new = outputs.size();
  const std::optional<CounterReading> hw0 = read_hardware_counters();
  const std::optional<int64_t> workers_cpu0 = executor_->worker_cpu_ns();
  const int64_t cpu0 = thread_cpu_ns();
  const int64_t t0 = now();
  const SchedulerOutput out = scheduler_->schedule();
  for (const Sequence* seq : out.finished) outputs.push_back(make_output(*seq));
  if (!out.empty()) {
    const StepTokens tokens = step_tokens(out);  // before the step advances the sequences
    run_batch(out, t0, outputs);
    if (workers_cpu0) {
      const int64_t used = thread_cpu_ns() - cpu0 + *executor_->worker_cpu_ns() - *workers_cpu0;
      if (!counters_.cpu) counters_.cpu.emplace();
      counters_.cpu->add(used, tokens);
      add_hardware_counts(hw0, tokens);
    }
  }
  // Only this step's finishes: an aborted id may already name a new request.
  for (size_t i = first_new; i < outputs.size(); ++i) {
    if (!outputs[i].finished) continue;
    if (draft_) draft_->release(outputs[i].id);
    requests_.erase(outputs[i].id);
  }
  return outputs;
}

void Engine::run_batch(const SchedulerOutput& out, int64_t t0,
                       std::vector<RequestOutput>& outputs) {
  const int64_t t1 = now();
  // Decided before update() advances the sequences: who samples, from how many tokens on.
  std::vector<const ScheduledSequence*> sampling;
  std::vector<int> tokens_before;
  std::vector<Sequence*> still_running;
  for (const ScheduledSequence& s : out.scheduled) {
    if (!s.samples()) continue;
    sampling.push_back(&s);
    tokens_before.push_back(s.seq->num_tokens());
  }
  ++executed_batches_;
  std::vector<std::vector<int32_t>> sampled;
  int64_t t2 = 0;
  try {
    sampled = execute_and_sample(out, sampling, t2);
  } catch (const std::exception& e) {
    if (!executor_->survives_failed_step()) {
      throw EngineFailure(std::string("a step's execution failed: ") + e.what());
    }
    fail_batch(out, e.what(), outputs);
    return;
  }
  const int64_t t = now();
  try {
    scheduler_->update(out, sampled);
  } catch (const std::exception& e) {
    throw EngineFailure(std::string("the scheduler's update failed: ") + e.what());
  }
  if (injects_step_error() && config_.debug_inject_step_error_fatal) {
    throw EngineFailure(
        "injected step error after the scheduler's update "
        "(debug.inject_step_error_fatal)");
  }
  int64_t generated = 0;
  for (size_t i = 0; i < sampling.size(); ++i) {
    Sequence& seq = *sampling[i]->seq;
    RequestOutput o = make_output(seq);
    o.token_ids.assign(seq.tokens.begin() + tokens_before[i], seq.tokens.end());
    if (!seq.step_logprobs.empty()) {  // those of the tokens the scheduler kept
      seq.step_logprobs.resize(std::min(seq.step_logprobs.size(), o.token_ids.size()));
      o.logprobs = std::move(seq.step_logprobs);
      seq.step_logprobs.clear();
    }
    o.token_times_ns.assign(o.token_ids.size(), t);  // verified together, delivered together
    generated += int64_t(o.token_ids.size());
    outputs.push_back(std::move(o));
    if (seq.status == SequenceStatus::kRunning) still_running.push_back(&seq);
  }
  const int64_t t3 = now();
  if (config_.speculates()) propose_drafts(still_running);
  propose_forced_tokens(still_running);
  counters_.spec_propose_ns += now() - t3;
  counters_.num_sampling_passes += int64_t(sampling.size());
  ++counters_.num_steps;
  counters_.last_step_tokens = out.num_batched_tokens;
  counters_.total_scheduled_tokens += out.num_batched_tokens;
  counters_.num_generated_tokens += generated;
  counters_.schedule_ns += t1 - t0;
  counters_.execute_ns += t2 - t1;
  counters_.sample_ns += t - t2;
  counters_.update_ns += t3 - t;
}

std::vector<std::vector<int32_t>> Engine::execute_and_sample(
    const SchedulerOutput& out, const std::vector<const ScheduledSequence*>& sampling,
    int64_t& executed_ns) {
  // A GPU executor samples on the device (its "execute" phase then includes sampling); it
  // never does when drafts are verified (the cuda executor then returns logits), so one token
  // per sequence.
  const bool executor_samples = executor_->samples_itself() && !needs_host_logits(sampling);
  std::vector<float> logits;
  std::vector<std::vector<int32_t>> sampled;
  if (executor_samples) {
    for (int32_t t : executor_->execute_and_sample(out, draws_for(sampling))) {
      sampled.push_back({t});
    }
  } else {
    logits = executor_->execute(out);
  }
  inject_decode_delay(out);
  if (injects_step_error() && !config_.debug_inject_step_error_fatal) {
    throw std::runtime_error("injected step error (debug.inject_step_error_every = " +
                             std::to_string(config_.debug_inject_step_error_every) + ")");
  }
  executed_ns = now();
  if (!executor_samples) sampled = sample_rows(logits, sampling);
  return sampled;
}

bool Engine::injects_step_error() const {
  const int64_t every = config_.debug_inject_step_error_every;
  return every > 0 && executed_batches_ % every == 0;
}

void Engine::fail_batch(const SchedulerOutput& out, const std::string& what,
                        std::vector<RequestOutput>& outputs) {
  for (const ScheduledSequence& s : out.scheduled) {
    Sequence& seq = *s.seq;
    seq.clear_drafts();
    seq.error = "the engine step failed: " + what;
    scheduler_->remove(&seq, FinishReason::kError);
    outputs.push_back(make_output(seq));
    outputs.back().step_failed = true;
  }
}

std::vector<std::vector<int32_t>> Engine::sample_rows(
    const std::vector<float>& logits, const std::vector<const ScheduledSequence*>& sampling) {
  NvtxRange range("sample");
  const size_t vocab = size_t(weights_.config.vocab_size);
  std::vector<std::vector<int32_t>> sampled;
  size_t row = 0;
  for (const ScheduledSequence* s : sampling) {
    sampled.push_back(sample_sequence(logits.data() + row * vocab, *s));
    row += size_t(1 + s->num_draft_tokens);
  }
  return sampled;
}

std::vector<int32_t> Engine::sample_sequence(const float* rows, const ScheduledSequence& s) {
  Sequence& seq = *s.seq;
  const int vocab = weights_.config.vocab_size;
  const int32_t eos = weights_.config.eos_token_id;
  const int drafts = s.num_draft_tokens;
  const TokenGrammar* grammar = seq.params.grammar.get();
  thread_local std::vector<float> processed;
  std::optional<GrammarMatcher> state = seq.grammar_state;  // advanced over the drafts, row by row
  std::vector<int32_t> tokens;
  seq.step_logprobs.clear();
  // Row i is the target's distribution after the last token and i draft tokens. Each draft is
  // verified against its row (exact: greedy agreement, or rejection sampling); the first
  // rejection gives the row's replacement token and ends the step, and when every draft stands
  // the row after the last one adds a token of its own.
  for (int i = 0; i <= drafts; ++i) {
    const float* raw = rows + size_t(i) * size_t(vocab);
    const float* r = raw;
    if (seq.params.processes_logits()) {  // the drafts before this row count as output
      processed.assign(raw, raw + vocab);
      const TokenHistory history{seq.tokens, seq.num_prompt_tokens,
                                 std::span(seq.draft_tokens).first(size_t(i))};
      apply_logits_processors(processed, seq.params, history, eos);
      if (grammar) {
        const int64_t t0 = now_ns();
        apply_grammar_mask(processed, *grammar, *state, seq.params, eos);
        counters_.grammar_mask_ns += now_ns() - t0;
        ++counters_.grammar_masks;
      }
      r = processed.data();
    }
    int32_t token = 0;
    if (i == drafts) {
      token = sample_token(r, vocab, seq.params, seq.rng);
    } else {
      // A draft model's drafts come with their distribution q; an n-gram's is a point mass.
      const int32_t draft = seq.draft_tokens[size_t(i)];
      token = seq.draft_probs.empty()
                  ? verify_draft_token(r, vocab, seq.params, draft, seq.rng)
                  : verify_draft_token(r, vocab, seq.params, draft,
                                       seq.draft_probs.data() + size_t(i) * size_t(vocab), seq.rng);
    }
    tokens.push_back(token);
    if (seq.params.logprobs >= 0) {
      seq.step_logprobs.push_back(token_logprobs(raw, vocab, token, seq.params.logprobs));
    }
    if (grammar && !is_end_token(token, seq.params, eos)) grammar->advance(*state, token);
    if (i < drafts && token != seq.draft_tokens[size_t(i)]) break;
  }
  if (grammar) seq.grammar_state = std::move(state);
  if (drafts > 0 && seq.drafts_from_grammar) {
    counters_.grammar_forced_drafted += drafts;
    counters_.grammar_forced_accepted += int(tokens.size()) - 1;
  } else if (drafts > 0) {
    count_verification(drafts, int(tokens.size()) - 1);
    adapt_proposal_length(seq, drafts, int(tokens.size()) - 1);
  }
  return tokens;
}

bool Engine::needs_host_logits(const std::vector<const ScheduledSequence*>& sampling) const {
  // The simulated executor has no logits: its tokens stand for any sampling.
  if (!executor_->returns_logits()) return false;
  for (const ScheduledSequence* s : sampling) {
    if (s->seq->params.needs_host_logits()) return true;
  }
  return false;
}

void Engine::count_verification(int drafts, int accepted) {
  ++counters_.spec_num_drafts;
  counters_.spec_num_draft_tokens += drafts;
  counters_.spec_num_accepted_tokens += accepted;
  auto& per_position = counters_.spec_accepted_per_position;
  per_position.resize(std::max(per_position.size(), size_t(config_.speculative_num_tokens)), 0);
  for (int i = 0; i < accepted; ++i) ++per_position[size_t(i)];
}

int Engine::proposal_count(const Sequence& seq) const {
  // Room for the drafts and the token after them, within max_model_len and max_tokens.
  const int room =
      std::min(max_model_len_ - seq.num_tokens(), seq.params.max_tokens - seq.num_output_tokens()) -
      1;
  const int wanted = config_.speculative_adaptive && seq.proposal_length > 0
                         ? seq.proposal_length
                         : config_.speculative_num_tokens;
  return std::max(std::min(wanted, room), 0);
}

void Engine::adapt_proposal_length(Sequence& seq, int drafts, int accepted) const {
  if (!config_.speculative_adaptive) return;
  const int length = seq.proposal_length > 0 ? seq.proposal_length : drafts;
  seq.proposal_length =
      std::clamp(accepted == drafts ? length + 2 : length - 1, 1, config_.speculative_num_tokens);
}

void Engine::propose_drafts(const std::vector<Sequence*>& seqs) {
  NvtxRange range("propose");
  if (draft_) {
    std::vector<DraftModel::Request> requests;
    for (Sequence* seq : seqs) requests.push_back({seq, proposal_count(*seq)});
    draft_->propose(requests);
    return;
  }
  for (Sequence* seq : seqs) {
    seq->clear_drafts();
    const int count = proposal_count(*seq);
    if (count <= 0) continue;
    seq->draft_tokens =
        propose_ngram(seq->tokens, config_.prompt_lookup_min, config_.prompt_lookup_max, count);
  }
}

void Engine::propose_forced_tokens(const std::vector<Sequence*>& seqs) {
  // An executor that samples on its own device gives one token per sequence: no drafts.
  if (!config_.grammar_jump_forward || executor_->samples_itself()) return;
  constexpr int kMaxForcedDrafts = 16;
  for (Sequence* seq : seqs) {
    if (!seq->grammar_state || !seq->draft_tokens.empty()) continue;
    const int room = std::min(max_model_len_ - seq->num_tokens(),
                              seq->params.max_tokens - seq->num_output_tokens()) -
                     1;
    const int count = std::min(room, kMaxForcedDrafts);
    if (count <= 0) continue;
    seq->draft_tokens = seq->params.grammar->forced_tokens(*seq->grammar_state, count);
    seq->drafts_from_grammar = !seq->draft_tokens.empty();
  }
}

// Each sampling sequence's parameters and draw, consuming its stream exactly as sample_token
// would: one uniform when temperature > 0, none when greedy.
std::vector<SamplingDraw> Engine::draws_for(const std::vector<const ScheduledSequence*>& sampling) {
  std::vector<SamplingDraw> draws;
  for (const ScheduledSequence* s : sampling) {
    Sequence* seq = s->seq;
    const SamplingParams& p = seq->params;
    const double u = p.temperature > 0.0f ? seq->rng.uniform() : 0.0;
    draws.push_back({p.temperature, p.top_k, p.top_p, u});
  }
  return draws;
}

void Engine::inject_decode_delay(const SchedulerOutput& out) {
  // A simulated executor adds the delay to its step's cost on its own clock.
  if (config_.debug_inject_decode_delay_us <= 0 || clock_) return;
  bool decodes = false;
  for (const ScheduledSequence& s : out.scheduled) {
    decodes = decodes || s.seq->num_computed_tokens >= s.seq->num_prompt_tokens;
  }
  if (!decodes) return;
  // Busy for that much of this thread's CPU time, as a slower kernel would be: on a busy core
  // it stretches in wall time like real work does (a wall-clock wait would not, and would make
  // the same delay a smaller slowdown whenever the machine is slower). Sleeping would overshoot
  // by the OS's wake-up latency.
  NvtxRange range("inject_decode_delay");
  const int64_t start = now_ns();
  const int64_t until = thread_cpu_ns() + config_.debug_inject_decode_delay_us * 1000;
  while (thread_cpu_ns() < until) {
  }
  counters_.injected_delay_ns += now_ns() - start;
}

int Engine::cached_prefix_blocks(std::span<const int32_t> tokens) const {
  return int(kv_->cached_prefix_blocks(tokens).size());
}

size_t Engine::kv_block_nbytes() const { return executor_->kv_block_nbytes(); }

KvBlocks Engine::export_prefix_kv(std::span<const int32_t> tokens, int first_block) const {
  const std::vector<int32_t> cached = kv_->cached_prefix_blocks(tokens);
  KvBlocks out;
  out.block_nbytes = executor_->kv_block_nbytes();
  out.first_block = std::max(first_block, 0);
  out.num_blocks = std::max(int(cached.size()) - out.first_block, 0);
  out.bytes.resize(size_t(out.num_blocks) * out.block_nbytes);
  for (int i = 0; i < out.num_blocks; ++i) {
    executor_->read_kv_block(
        cached[size_t(out.first_block + i)],
        std::span(out.bytes).subspan(size_t(i) * out.block_nbytes, out.block_nbytes));
  }
  return out;
}

int Engine::import_prefix_kv(std::span<const int32_t> tokens, const KvBlocks& blocks) {
  const size_t nbytes = executor_->kv_block_nbytes();
  if (blocks.block_nbytes != nbytes || blocks.first_block < 0 ||
      blocks.bytes.size() != size_t(blocks.num_blocks) * blocks.block_nbytes) {
    throw std::invalid_argument("KV blocks of " + std::to_string(blocks.block_nbytes) +
                                " bytes; this engine's are " + std::to_string(nbytes) +
                                " (another model, block size or KV dtype?)");
  }
  const int end = blocks.first_block + blocks.num_blocks;
  return kv_->import_prefix(tokens, end, [&](int i, int32_t block) {
    if (i < blocks.first_block) return false;  // evicted here since the sender was told
    executor_->write_kv_block(
        block, std::span(blocks.bytes).subspan(size_t(i - blocks.first_block) * nbytes, nbytes));
    return true;
  });
}

bool Engine::abort(const RequestId& id) {
  auto it = requests_.find(id);
  if (it == requests_.end() || it->second->status == SequenceStatus::kFinished) return false;
  scheduler_->remove(it->second.get(), FinishReason::kAbort);
  if (draft_) draft_->release(id);
  pending_.push_back(make_output(*it->second));
  requests_.erase(it);
  return true;
}

bool Engine::has_unfinished() const { return scheduler_->has_unfinished() || !pending_.empty(); }

std::vector<GenerateResult> Engine::generate(const std::vector<std::vector<int32_t>>& prompts,
                                             const SamplingParams& params) {
  std::unordered_map<RequestId, size_t> index;
  for (const auto& prompt : prompts) {
    const RequestId id = "generate-" + std::to_string(generate_counter_++);
    add_request(id, prompt, params);
    index.emplace(id, index.size());
  }
  std::vector<GenerateResult> results(prompts.size());
  while (has_unfinished()) {
    for (const RequestOutput& o : step()) {
      auto it = index.find(o.id);
      if (it == index.end()) continue;
      GenerateResult& r = results[it->second];
      r.token_ids.insert(r.token_ids.end(), o.token_ids.begin(), o.token_ids.end());
      if (o.finished) r.finish_reason = o.finish_reason;
    }
  }
  return results;
}

std::optional<CounterReading> Engine::read_hardware_counters() {
  if (!hardware_tried_) {
    hardware_tried_ = true;
    if (std::optional<std::vector<pid_t>> tids = executor_->worker_tids()) {
      tids->insert(tids->begin(), 0);  // the stepping thread
      hardware_counters_ = HardwareCounters::open(*tids, HardwareCounters::hardware_events(),
                                                  &counters_.hardware_unavailable);
    }
  }
  if (!hardware_counters_) return std::nullopt;
  std::optional<CounterReading> reading = hardware_counters_->read();
  if (!reading) drop_hardware_counters();
  return reading;
}

// A count that cannot be read, or was scaled by multiplexing, would leave a partial sum: the
// run's counts are dropped and said to be unavailable instead.
void Engine::drop_hardware_counters() {
  hardware_counters_.reset();
  counters_.hardware.reset();
  counters_.hardware_unavailable =
      "a counter could not be read in full (multiplexed with other perf users, or a thread exited)";
}

void Engine::add_hardware_counts(const std::optional<CounterReading>& before,
                                 const StepTokens& tokens) {
  if (!before || !hardware_counters_) return;
  const std::optional<CounterReading> after = hardware_counters_->read();
  if (!after) {
    drop_hardware_counters();
    return;
  }
  if (!counters_.hardware) counters_.hardware.emplace();
  counters_.hardware->add(
      {after->instructions - before->instructions, after->cycles - before->cycles}, tokens);
}

EngineStats Engine::stats() const {
  EngineStats s = counters_;
  s.memory = executor_->memory();
  if (draft_) {
    const MemoryLedger d = draft_->memory();
    s.memory.weights_bytes += d.weights_bytes;
    s.memory.kv_cache_bytes += d.kv_cache_bytes;
    s.memory.workspace_bytes += d.workspace_bytes;
  }
  s.kv_usage = kv_->usage();
  s.num_kv_blocks = kv_->num_blocks();
  s.parallel = executor_->parallel_stats();
  s.num_running = scheduler_->num_running();
  s.num_waiting = scheduler_->num_waiting();
  s.num_preemptions = scheduler_->num_preemptions();
  s.prefix_cache = kv_->prefix_stats();
  s.speculative = config_.speculates();
  if (s.speculative) s.speculative_method = speculative_method_name(config_.speculative_method);
  return s;
}

void Engine::check_invariants() const { kv_->check_invariants(); }

}  // namespace infergate

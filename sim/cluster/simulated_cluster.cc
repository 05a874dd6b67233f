#include "sim/cluster/simulated_cluster.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "router/policy/prefix_hashes.h"

namespace infergate {

namespace {

// A replica set of `count` workers, all in rotation (nothing fails in a simulation).
std::unique_ptr<ReplicaSet> simulated_replica_set(int count, const std::string& name,
                                                  const SimulatedWorkers& w) {
  std::vector<HttpUrl> urls;
  for (int i = 0; i < count; ++i) {
    urls.push_back(parse_http_url("http://simulated-" + name + "-" + std::to_string(i)));
  }
  ReplicaSetSettings settings;
  settings.policy = w.policy;
  settings.seed = w.seed;
  auto set = std::make_unique<ReplicaSet>(urls, settings);
  for (int i = 0; i < count; ++i) set->health_checked(i, urls[size_t(i)], true);
  return set;
}

std::vector<RouterRecord::Replica> replica_records(const ReplicaSet& set) {
  std::vector<RouterRecord::Replica> out;
  for (const ReplicaSnapshot& s : set.snapshot()) {
    RouterRecord::Replica r;
    r.url = s.url;
    r.routed = int64_t(s.counters.routed);
    r.succeeded = int64_t(s.counters.succeeded);
    r.failed = int64_t(s.counters.failed);
    r.in_flight = s.outstanding;
    r.healthy = s.healthy;
    if (s.counters.prompt_blocks > 0) {
      r.prefix_hit_rate = double(s.counters.matched_blocks) / double(s.counters.prompt_blocks);
    }
    out.push_back(r);
  }
  return out;
}

void add_stats(EngineStats& sum, const EngineStats& s) {
  sum.memory.weights_bytes += s.memory.weights_bytes;
  sum.memory.kv_cache_bytes += s.memory.kv_cache_bytes;
  sum.memory.workspace_bytes += s.memory.workspace_bytes;
  sum.num_kv_blocks += s.num_kv_blocks;
  sum.num_running += s.num_running;
  sum.num_waiting += s.num_waiting;
  sum.num_preemptions += s.num_preemptions;
  sum.prefix_cache.queries += s.prefix_cache.queries;
  sum.prefix_cache.hits += s.prefix_cache.hits;
  sum.num_steps += s.num_steps;
  sum.last_step_tokens += s.last_step_tokens;
  sum.total_scheduled_tokens += s.total_scheduled_tokens;
  sum.num_generated_tokens += s.num_generated_tokens;
  sum.schedule_ns += s.schedule_ns;
  sum.execute_ns += s.execute_ns;
  sum.sample_ns += s.sample_ns;
  sum.update_ns += s.update_ns;
  sum.injected_delay_ns += s.injected_delay_ns;
}

}  // namespace

SimulatedCluster::SimulatedCluster(const SimulatedDeployment& deployment,
                                   const EngineConfig& config, const SimulatedWorkers& workers)
    : spec_(workers), prefill_count_(workers.prefill_replicas), block_size_(config.block_size) {
  if (workers.replicas < 1 || workers.prefill_replicas < 0 ||
      workers.prefill_replicas >= workers.replicas || (!workers.routed && workers.replicas != 1)) {
    throw std::invalid_argument("simulated workers: " + std::to_string(workers.replicas) +
                                " workers with " + std::to_string(workers.prefill_replicas) +
                                " prefill workers (some worker must decode; more than one "
                                "needs a router)");
  }
  devices_per_worker_ = deployment.devices(config);
  const int host_ranks = devices_per_worker_ * workers.replicas;
  for (int i = 0; i < workers.replicas; ++i) {
    auto w = std::make_unique<Worker>();
    w->role = i < prefill_count_ ? Role::kPrefill : Role::kServing;
    w->pool_index = i < prefill_count_ ? i : i - prefill_count_;
    w->engine =
        deployment.make_engine(config, w->clock, workers.routed ? &busy_host_ranks_ : nullptr);
    workers_.push_back(std::move(w));
  }
  now_ = workers_[0]->clock.now_ns();
  if (workers.routed) {
    serving_set_ = simulated_replica_set(workers.replicas - prefill_count_, "replica", workers);
    if (prefill_count_ > 0)
      prefill_set_ = simulated_replica_set(prefill_count_, "prefill", workers);
  }
  // Every device of a worker holds its part of the KV (its heads, its stage's layers) and sends
  // it over its own link, so a worker's devices read in parallel.
  kv_bytes_per_token_ = deployment.kv_bytes_per_token(config);
  kv_link_ = deployment.hardware().link_for(host_ranks);
  kv_bandwidth_bytes_s_ = kv_link_.bandwidth_bytes_s * devices_per_worker_;
  if (workers.kv_read_rate_mb_s > 0) {
    kv_bandwidth_bytes_s_ = std::min(kv_bandwidth_bytes_s_, workers.kv_read_rate_mb_s * 1e6);
  }
}

int SimulatedCluster::devices() const { return devices_per_worker_ * int(workers_.size()); }

void SimulatedCluster::submit(uint64_t index, const std::vector<int32_t>& prompt,
                              const SamplingParams& params) {
  Request& r = requests_[index];
  r.prompt = &prompt;
  r.params = params;
  r.sent_ns = now_;
  if (spec_.routed) r.prefix = token_prefix_hashes(prompt, block_size_);
  try {
    if (!route(index)) waiting_.push_back(index);
  } catch (const RequestError&) {
    requests_.erase(index);
    throw;
  }
}

bool SimulatedCluster::route(uint64_t index) {
  if (!spec_.routed) {
    send_to_serving(index, 0);
    return true;
  }
  Request& r = requests_.at(index);
  ReplicaSet& set = prefill_set_ ? *prefill_set_ : *serving_set_;
  NoReplica why = NoReplica::kAllFull;
  const std::optional<ReplicaLease> lease = set.acquire(r.prefix, {}, &why);
  if (!lease) return false;
  try {
    if (prefill_set_) {
      send_to_prefill(index, lease->replica);
    } else {
      send_to_serving(index, lease->replica);
    }
  } catch (const RequestError&) {
    set.finish(lease->replica, false);
    throw;
  }
  return true;
}

void SimulatedCluster::send_to_prefill(uint64_t index, int worker) {
  Request& r = requests_.at(index);
  Worker& p = *workers_[size_t(worker)];
  p.clock.advance_to(now_);
  // As the router asks a prefill worker: the prompt and one token.
  SamplingParams one = r.params;
  one.max_tokens = 1;
  p.engine->add_request(std::to_string(index), *r.prompt, one);
  r.prefill = worker;
  r.prefill_begin_ns = now_;
}

void SimulatedCluster::send_to_serving(uint64_t index, int worker) {
  Request& r = requests_.at(index);
  Worker& s = serving_worker(worker);
  s.clock.advance_to(now_);
  s.engine->add_request(std::to_string(index), *r.prompt, r.params);
  r.serving = worker;
}

// The prompt was prefilled (or its prefill failed): a decode worker reads the full blocks it
// lacks, then takes the request.
bool SimulatedCluster::route_to_decode(uint64_t index) {
  Request& r = requests_.at(index);
  NoReplica why = NoReplica::kAllFull;
  const std::optional<ReplicaLease> lease = serving_set_->acquire(r.prefix, {}, &why);
  if (!lease) return false;
  r.serving = lease->replica;
  Worker& d = serving_worker(lease->replica);
  const int full = int(r.prompt->size()) / block_size_;
  const int cached = std::min(d.engine->cached_prefix_blocks(*r.prompt), full);
  const int blocks = r.handoff >= 0 ? full - cached : 0;  // a failed prefill exported nothing
  const double bytes = double(blocks) * block_size_ * kv_bytes_per_token_;
  const int64_t start = std::max(now_, d.link_free_ns);
  const int64_t end =
      blocks > 0
          ? start +
                int64_t(std::llround((kv_link_.latency_s + bytes / kv_bandwidth_bytes_s_) * 1e9))
          : now_;
  if (blocks > 0) d.link_free_ns = end;
  reads_.emplace(std::pair(end, read_order_++), KvRead{index, lease->replica, cached, blocks});
  if (r.handoff >= 0) {
    KvHandoffRecord& h = handoffs_[size_t(r.handoff)];
    h.read = blocks > 0;
    h.bytes = int64_t(bytes);
    h.read_ms = double(end - now_) * 1e-6;
  }
  return true;
}

void SimulatedCluster::finish_read(const KvRead& read) {
  Request& r = requests_.at(read.index);
  Worker& d = serving_worker(read.decode);
  d.clock.advance_to(now_);
  if (read.num_blocks > 0) {
    KvBlocks blocks;  // KV contents are not simulated: bookkeeping only (0-byte blocks)
    blocks.first_block = read.first_block;
    blocks.num_blocks = read.num_blocks;
    d.engine->import_prefix_kv(*r.prompt, blocks);
  }
  try {
    d.engine->add_request(std::to_string(read.index), *r.prompt, r.params);
  } catch (const RequestError& e) {
    serving_set_->finish(read.decode, false);
    fail_late(read.index, e.what());
  }
}

void SimulatedCluster::fail_late(uint64_t index, const std::string& error) {
  RequestOutput o;
  o.id = std::to_string(index);
  o.finished = true;
  o.finish_reason = FinishReason::kError;
  o.error = error;
  late_.push_back(std::move(o));
  requests_.erase(index);
}

void SimulatedCluster::dispatch_waiting() {
  while (!waiting_decode_.empty() && route_to_decode(waiting_decode_.front())) {
    waiting_decode_.pop_front();
  }
  while (!waiting_.empty()) {
    const uint64_t index = waiting_.front();
    try {
      if (!route(index)) return;
    } catch (const RequestError& e) {
      fail_late(index, e.what());
    }
    waiting_.pop_front();
  }
}

void SimulatedCluster::start_steps() {
  // On a CPU the workers share the host's cores: a step runs on its share among the workers
  // stepping when it starts (its own included).
  const auto starts = [](const Worker& w) { return !w.stepping && w.engine->has_unfinished(); };
  int busy = 0;
  for (const std::unique_ptr<Worker>& w : workers_) busy += w->stepping || starts(*w);
  busy_host_ranks_ = busy * devices_per_worker_;
  for (const std::unique_ptr<Worker>& w : workers_) {
    if (!starts(*w)) continue;
    w->clock.advance_to(now_);
    w->outputs = w->engine->step();
    w->step_end_ns = w->clock.now_ns();
    w->stepping = true;
  }
}

int64_t SimulatedCluster::next_event_ns() const {
  if (!late_.empty()) return now_;
  int64_t next = reads_.empty() ? kNever : reads_.begin()->first.first;
  for (const std::unique_ptr<Worker>& w : workers_) {
    if (w->stepping) next = std::min(next, w->step_end_ns);
  }
  return next;
}

void SimulatedCluster::note_first_token(Request& r, const RequestOutput& o) {
  if (r.answered || o.token_times_ns.empty()) return;
  r.answered = true;
  if (r.handoff < 0) return;
  KvHandoffRecord& h = handoffs_[size_t(r.handoff)];
  const double ttft_ms = double(o.token_times_ns.front() - r.sent_ns) * 1e-6;
  if (h.read && ttft_ms > 0) h.ttft_share = h.read_ms / ttft_ms;
}

void SimulatedCluster::deliver(Worker& w, std::vector<RequestOutput>& out) {
  std::vector<RequestOutput> outputs = std::move(w.outputs);
  w.outputs.clear();
  w.stepping = false;
  bool room = false;
  for (RequestOutput& o : outputs) {
    const uint64_t index = std::stoull(o.id);
    Request& r = requests_.at(index);
    const bool ok = o.finish_reason != FinishReason::kError;
    if (w.role == Role::kPrefill) {  // its token is dropped: the decode worker samples its own
      if (!o.finished) continue;
      prefill_set_->finish(r.prefill, ok);
      if (ok) {
        r.handoff = int(handoffs_.size());
        KvHandoffRecord h;
        h.prefill_ms = double(now_ - r.prefill_begin_ns) * 1e-6;
        handoffs_.push_back(h);
      }
      if (!route_to_decode(index)) waiting_decode_.push_back(index);
      room = true;
      continue;
    }
    note_first_token(r, o);
    if (o.finished) {
      if (serving_set_)
        serving_set_->finish(r.serving, ok && o.finish_reason != FinishReason::kAbort);
      requests_.erase(index);
      room = true;
    }
    out.push_back(std::move(o));
  }
  if (room) dispatch_waiting();
}

std::vector<RequestOutput> SimulatedCluster::advance_to(int64_t t) {
  std::vector<RequestOutput> out = std::move(late_);
  late_.clear();
  for (;;) {  // what ends by t, in time order: steps before reads at one instant
    Worker* step = nullptr;
    for (const std::unique_ptr<Worker>& w : workers_) {
      if (w->stepping && w->step_end_ns <= t && (!step || w->step_end_ns < step->step_end_ns)) {
        step = w.get();
      }
    }
    const bool read_due = !reads_.empty() && reads_.begin()->first.first <= t;
    if (step && (!read_due || step->step_end_ns <= reads_.begin()->first.first)) {
      now_ = std::max(now_, step->step_end_ns);
      deliver(*step, out);
    } else if (read_due) {
      const auto it = reads_.begin();
      now_ = std::max(now_, it->first.first);
      const KvRead read = it->second;
      reads_.erase(it);
      finish_read(read);
    } else {
      break;
    }
  }
  now_ = std::max(now_, t);
  std::vector<RequestOutput> late = std::move(late_);
  late_.clear();
  for (RequestOutput& o : late) out.push_back(std::move(o));
  return out;
}

bool SimulatedCluster::has_unfinished() const {
  if (!late_.empty() || !reads_.empty() || !waiting_.empty() || !waiting_decode_.empty()) {
    return true;
  }
  return std::any_of(workers_.begin(), workers_.end(), [](const std::unique_ptr<Worker>& w) {
    return w->stepping || w->engine->has_unfinished();
  });
}

EngineStats SimulatedCluster::stats() const {
  EngineStats sum = workers_[0]->engine->stats();
  if (workers_.size() == 1) return sum;
  double kv_usage = sum.kv_usage;
  std::vector<ParallelRecord> per_worker;
  for (size_t i = 0; i < workers_.size(); ++i) {
    const EngineStats s = workers_[i]->engine->stats();
    if (i > 0) {
      add_stats(sum, s);
      kv_usage += s.kv_usage;
    }
    ParallelRecord p = s.parallel.value_or(ParallelRecord{});
    p.role = workers_[i]->role == Role::kPrefill ? "prefill"
                                                 : (prefill_count_ > 0 ? "decode" : "colocated");
    per_worker.push_back(std::move(p));
  }
  sum.kv_usage = kv_usage / double(workers_.size());
  if (!sum.parallel) sum.parallel.emplace();
  sum.parallel->workers = std::move(per_worker);
  return sum;
}

RouterRecord::Disaggregation SimulatedCluster::handoff_figures() const {
  RouterRecord::Disaggregation d = kv_handoff_figures(handoffs_, spec_.kv_read_rate_mb_s);
  d.prefill = replica_records(*prefill_set_);
  d.prefills_exported = int64_t(handoffs_.size());
  return d;
}

std::optional<RouterRecord> SimulatedCluster::router_record() const {
  if (!serving_set_) return std::nullopt;
  RouterRecord r;
  r.policy = to_string(spec_.policy);
  r.replicas = replica_records(*serving_set_);
  uint64_t matched = 0, best = 0, blocks = 0;
  for (const ReplicaSnapshot& s : serving_set_->snapshot()) {
    matched += s.counters.matched_blocks;
    best += s.counters.best_matched_blocks;
    blocks += s.counters.prompt_blocks;
  }
  if (blocks > 0) {
    r.prefix_hit_rate_achieved = double(matched) / double(blocks);
    r.prefix_hit_rate_oracle = double(best) / double(blocks);
  }
  if (prefill_set_) r.disaggregation = handoff_figures();
  return r;
}

}  // namespace infergate

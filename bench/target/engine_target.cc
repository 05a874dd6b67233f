#include "bench/target/engine_target.h"

#include <string>

#include "common/util/clock.h"

namespace infergate {

EngineTarget::EngineTarget(std::unique_ptr<Engine> engine) : engine_(std::move(engine)) {}

EngineTarget::~EngineTarget() { stop(); }

void EngineTarget::start(TargetEventSink sink) {
  sink_ = std::move(sink);
  stopping_ = false;
  thread_ = std::thread([this] { loop(); });
}

void EngineTarget::submit(uint64_t index, const std::vector<int32_t>& prompt, int max_tokens) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back({index, prompt, max_tokens});
  }
  wake_.notify_one();
}

void EngineTarget::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

nlohmann::json EngineTarget::stats() const {
  std::lock_guard<std::mutex> lock(stats_mutex_);
  return stats_;
}

void EngineTarget::admit(std::vector<Submission>& batch) {
  for (Submission& s : batch) {
    SamplingParams params;
    params.max_tokens = s.max_tokens;
    params.ignore_eos = true;
    try {
      engine_->add_request(std::to_string(s.index), std::move(s.prompt), params);
      in_flight_.insert(s.index);
    } catch (const std::exception& e) {  // refused: report it, keep serving the others
      sink_(end_event(s.index, RequestStatus::kError, e.what()));
    }
  }
  batch.clear();
}

void EngineTarget::publish(const std::vector<RequestOutput>& outputs) {
  for (const RequestOutput& o : outputs) {
    TargetEvent ev;
    ev.index = std::stoull(o.id);
    ev.token_times_ns = o.token_times_ns;
    ev.finished = o.finished;
    ev.finished_ns =
        o.finished ? (o.token_times_ns.empty() ? now_ns() : o.token_times_ns.back()) : 0;
    ev.status = o.finish_reason == FinishReason::kAbort   ? RequestStatus::kAborted
                : o.finish_reason == FinishReason::kError ? RequestStatus::kError
                                                          : RequestStatus::kOk;
    ev.error = o.error;  // a request the engine could never schedule says why
    ev.cached_tokens = o.num_cached_prompt_tokens;
    ev.preemptions = o.num_preemptions;
    if (o.finished) in_flight_.erase(ev.index);
    sink_(std::move(ev));
  }
  std::lock_guard<std::mutex> lock(stats_mutex_);
  stats_ = engine_stats_json(engine_->stats());
}

void EngineTarget::loop() {
  std::vector<Submission> batch;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (!engine_->has_unfinished()) {
        wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      }
      if (stopping_) break;
      batch.swap(queue_);
    }
    admit(batch);
    publish(engine_->step());
  }
  abort_all();
}

void EngineTarget::abort_all() {
  std::vector<Submission> never_admitted;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    never_admitted.swap(queue_);
  }
  for (const Submission& s : never_admitted) sink_(end_event(s.index, RequestStatus::kAborted));
  for (uint64_t index : in_flight_) engine_->abort(std::to_string(index));
  publish(engine_->step());  // reports each abort once
}

nlohmann::json engine_stats_json(const EngineStats& s) {
  nlohmann::json j = {{"weights_bytes", s.memory.weights_bytes},
                      {"kv_cache_bytes", s.memory.kv_cache_bytes},
                      {"workspace_bytes", s.memory.workspace_bytes},
                      {"memory_total_bytes", s.memory.total()},
                      {"kv_usage", s.kv_usage},
                      {"num_kv_blocks", s.num_kv_blocks},
                      {"num_running", s.num_running},
                      {"num_waiting", s.num_waiting},
                      {"num_preemptions", s.num_preemptions},
                      {"prefix_cache_queries", s.prefix_cache.queries},
                      {"prefix_cache_hits", s.prefix_cache.hits},
                      {"num_steps", s.num_steps},
                      {"last_step_tokens", s.last_step_tokens},
                      {"total_scheduled_tokens", s.total_scheduled_tokens},
                      {"num_generated_tokens", s.num_generated_tokens},
                      {"step_time_ms",
                       {{"schedule", double(s.schedule_ns) / 1e6},
                        {"execute", double(s.execute_ns) / 1e6},
                        {"sample", double(s.sample_ns) / 1e6},
                        {"update", double(s.update_ns) / 1e6},
                        {"injected_delay", double(s.injected_delay_ns) / 1e6}}}};
  // Multi-rank engines: layout, communication by collective, bubble, expert load (rank 0's
  // memory above is its own part).
  if (!s.parallel.is_null()) j["parallel"] = s.parallel;
  return j;
}

}  // namespace infergate

#include "engine/service/engine_service.h"

#include <utility>

namespace infergate {

namespace {

ServiceEvent shutting_down(RequestId id, const std::string& failure = "") {
  ServiceEvent refused;
  refused.output.id = std::move(id);
  refused.refusal = Refusal::kShuttingDown;
  refused.error = failure.empty() ? "the engine is shutting down" : "the engine failed: " + failure;
  return refused;
}

ServiceEvent failed_by_engine(RequestId id, const std::string& cause) {
  ServiceEvent e;
  e.output.id = std::move(id);
  e.output.finished = true;
  e.output.finish_reason = FinishReason::kError;
  e.output.error = "the engine failed: " + cause;
  e.output.step_failed = true;
  return e;
}

}  // namespace

EngineService::EngineService(std::unique_ptr<Engine> engine)
    : engine_(std::move(engine)), stats_(engine_->stats()), thread_([this] { loop(); }) {}

EngineService::~EngineService() { stop(); }

void EngineService::submit(RequestId id, std::vector<int32_t> prompt, SamplingParams params,
                           EventSink sink, KvHandoff handoff) {
  std::string failure;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!stopping_) {
      queue_.push_back({std::move(id), std::move(prompt), std::move(params), std::move(sink),
                        std::move(handoff)});
      wake_.notify_one();
      return;
    }
    failure = failure_;
  }
  sink(shutting_down(std::move(id), failure));
}

void EngineService::count_cached_prefix(std::vector<int32_t> tokens,
                                        std::function<void(int)> done) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    prefix_counts_.push_back({std::move(tokens), std::move(done)});
  }
  wake_.notify_one();
}

void EngineService::abort(const RequestId& id) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    aborts_.push_back(id);
  }
  wake_.notify_one();
}

void EngineService::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  // From the engine thread itself (a failure handler stopping the server): it is ending.
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

void EngineService::set_failure_handler(std::function<void(const std::string&)> handler) {
  std::lock_guard<std::mutex> lock(mutex_);
  on_failure_ = std::move(handler);
}

std::string EngineService::failure() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return failure_;
}

EngineStats EngineService::stats() const {
  std::lock_guard<std::mutex> lock(stats_mutex_);
  return stats_;
}

void EngineService::admit(std::vector<Submission>& batch) {
  for (Submission& s : batch) {
    try {
      const int imported =
          s.handoff.import ? engine_->import_prefix_kv(s.prompt, *s.handoff.import) : 0;
      std::vector<int32_t> exported;
      if (s.handoff.export_prompt_kv) exported = s.prompt;
      engine_->add_request(s.id, std::move(s.prompt), s.params);
      // The sink moves only once the request is in: a refusal above still needs it.
      admitted_.emplace(s.id, Admitted{std::move(s.sink), std::move(exported), imported});
    } catch (const std::exception& e) {  // refused: tell that session, keep serving the others
      ServiceEvent refused;
      refused.output.id = s.id;
      refused.refusal = Refusal::kInvalid;
      refused.error = e.what();
      s.sink(std::move(refused));
    }
  }
  batch.clear();
}

void EngineService::count_prefixes(std::vector<PrefixCount>& counts) {
  for (PrefixCount& c : counts) c.done(engine_->cached_prefix_blocks(c.tokens));
  counts.clear();
}

void EngineService::publish(std::vector<RequestOutput> outputs) {
  {  // before the outputs: a client that has its answer must not then read older gauges
    std::lock_guard<std::mutex> lock(stats_mutex_);
    stats_ = engine_->stats();
  }
  for (RequestOutput& o : outputs) {
    auto it = admitted_.find(o.id);
    if (it == admitted_.end()) continue;
    Admitted& a = it->second;
    const bool finished = o.finished;
    ServiceEvent event{std::move(o), Refusal::kNone, "", std::exchange(a.kv_blocks_imported, 0),
                       nullptr};
    if (finished && !a.exported_prompt.empty() &&
        event.output.finish_reason != FinishReason::kAbort) {
      event.exported_kv = std::make_shared<KvBlocks>(engine_->export_prefix_kv(a.exported_prompt));
    }
    a.sink(std::move(event));
    if (finished) admitted_.erase(it);
  }
}

void EngineService::loop() {
  std::vector<Submission> batch;
  std::vector<RequestId> aborts;
  std::vector<PrefixCount> counts;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (!engine_->has_unfinished()) {
        wake_.wait(lock, [&] {
          return stopping_ || !queue_.empty() || !aborts_.empty() || !prefix_counts_.empty();
        });
      }
      if (stopping_) break;
      batch.swap(queue_);
      aborts.swap(aborts_);
      counts.swap(prefix_counts_);
    }
    count_prefixes(counts);
    admit(batch);
    for (const RequestId& id : aborts) engine_->abort(id);
    aborts.clear();
    std::vector<RequestOutput> outputs;
    try {
      outputs = engine_->step();
    } catch (const std::exception& e) {  // not contained by the engine: it cannot go on
      fail(e.what());
      return;
    }
    publish(std::move(outputs));
  }
  abort_all();
}

void EngineService::fail(const std::string& cause) {
  std::vector<Submission> never_admitted;
  std::vector<PrefixCount> counts;
  std::function<void(const std::string&)> on_failure;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    failure_ = cause;
    never_admitted.swap(queue_);
    counts.swap(prefix_counts_);
    on_failure = on_failure_;
  }
  for (Submission& s : never_admitted) s.sink(shutting_down(s.id, cause));
  for (PrefixCount& c : counts) c.done(0);  // the prefix cache is not to be trusted either
  for (auto& [id, admitted] : admitted_) admitted.sink(failed_by_engine(id, cause));
  admitted_.clear();
  if (on_failure) on_failure(cause);
}

void EngineService::abort_all() {
  std::vector<Submission> never_admitted;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    never_admitted.swap(queue_);
  }
  for (Submission& s : never_admitted) s.sink(shutting_down(s.id));
  std::vector<PrefixCount> counts;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    counts.swap(prefix_counts_);
  }
  count_prefixes(counts);
  for (const auto& [id, admitted] : admitted_) engine_->abort(id);
  publish(engine_->step());  // reports each abort once
}

}  // namespace infergate

#include "engine/service/engine_service.h"

namespace infergate {

namespace {

ServiceEvent shutting_down(RequestId id) {
  ServiceEvent refused;
  refused.output.id = std::move(id);
  refused.refusal = Refusal::kShuttingDown;
  refused.error = "the engine is shutting down";
  return refused;
}

}  // namespace

EngineService::EngineService(std::unique_ptr<Engine> engine)
    : engine_(std::move(engine)), stats_(engine_->stats()), thread_([this] { loop(); }) {}

EngineService::~EngineService() { stop(); }

void EngineService::submit(RequestId id, std::vector<int32_t> prompt, SamplingParams params,
                           EventSink sink) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!stopping_) {
      queue_.push_back({std::move(id), std::move(prompt), std::move(params), std::move(sink)});
      wake_.notify_one();
      return;
    }
  }
  sink(shutting_down(std::move(id)));
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
  if (thread_.joinable()) thread_.join();
}

EngineStats EngineService::stats() const {
  std::lock_guard<std::mutex> lock(stats_mutex_);
  return stats_;
}

void EngineService::admit(std::vector<Submission>& batch) {
  for (Submission& s : batch) {
    try {
      engine_->add_request(s.id, std::move(s.prompt), s.params);
      sinks_.emplace(s.id, std::move(s.sink));
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

void EngineService::publish(std::vector<RequestOutput> outputs) {
  {  // before the outputs: a client that has its answer must not then read older gauges
    std::lock_guard<std::mutex> lock(stats_mutex_);
    stats_ = engine_->stats();
  }
  for (RequestOutput& o : outputs) {
    auto it = sinks_.find(o.id);
    if (it == sinks_.end()) continue;
    const bool finished = o.finished;
    it->second(ServiceEvent{std::move(o), Refusal::kNone, ""});
    if (finished) sinks_.erase(it);
  }
}

void EngineService::loop() {
  std::vector<Submission> batch;
  std::vector<RequestId> aborts;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (!engine_->has_unfinished()) {
        wake_.wait(lock, [&] { return stopping_ || !queue_.empty() || !aborts_.empty(); });
      }
      if (stopping_) break;
      batch.swap(queue_);
      aborts.swap(aborts_);
    }
    admit(batch);
    for (const RequestId& id : aborts) engine_->abort(id);
    aborts.clear();
    publish(engine_->step());
  }
  abort_all();
}

void EngineService::abort_all() {
  std::vector<Submission> never_admitted;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    never_admitted.swap(queue_);
  }
  for (Submission& s : never_admitted) s.sink(shutting_down(s.id));
  for (const auto& [id, sink] : sinks_) engine_->abort(id);
  publish(engine_->step());  // reports each abort once
}

}  // namespace infergate

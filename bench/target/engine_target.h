// The in-process engine as a benchmark target. The engine runs on its own thread: it takes
// queued requests in at the top of every step, so a request arriving mid-step waits for the
// step to end, exactly as it would in a server, and that wait counts in its latency.
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_set>
#include <vector>

#include "bench/target/target.h"
#include "engine/core/engine.h"

namespace infergate {

class EngineTarget final : public Target {
 public:
  explicit EngineTarget(std::unique_ptr<Engine> engine);
  ~EngineTarget() override;

  void start(TargetEventSink sink) override;
  void submit(uint64_t index, const std::vector<int32_t>& prompt, int max_tokens) override;
  void stop() override;
  nlohmann::json stats() const override;
  int32_t vocab_size() const override { return engine_->model_config().vocab_size; }

 private:
  struct Submission {
    uint64_t index;
    std::vector<int32_t> prompt;
    int max_tokens;
  };
  void loop();
  void admit(std::vector<Submission>& batch);
  void publish(const std::vector<RequestOutput>& outputs);
  void abort_all();

  std::unique_ptr<Engine> engine_;
  TargetEventSink sink_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Submission> queue_;
  std::unordered_set<uint64_t> in_flight_;  // admitted, not finished (engine thread only)
  bool stopping_ = false;
  std::thread thread_;
  mutable std::mutex stats_mutex_;
  nlohmann::json stats_ = nlohmann::json::object();
};

// The engine's statistics as JSON (the shape results files and reports use).
nlohmann::json engine_stats_json(const EngineStats& stats);

}  // namespace infergate

// A target with no model: every request "generates" its max_tokens at once (or one every
// token_delay_us on a background thread). It measures the harness itself: whatever latency a
// run against it shows is the harness's own.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "bench/targets/target.h"

namespace infergate {

class EchoTarget final : public Target {
 public:
  explicit EchoTarget(double token_delay_us = 0, int32_t vocab_size = 32000);
  ~EchoTarget() override;

  void start(TargetEventSink sink) override;
  void submit(uint64_t index, const std::vector<int32_t>& prompt, int max_tokens) override;
  void stop() override;
  TargetStats stats() const override { return {}; }
  int32_t vocab_size() const override { return vocab_size_; }

 private:
  struct Pending {
    uint64_t index;
    int remaining;
    int64_t next_ns;
    int emitted = 0;
  };
  int32_t echo_token(uint64_t index, int j) const;
  void emit_all(uint64_t index, int max_tokens);
  void delay_loop();

  double token_delay_us_;
  int32_t vocab_size_;
  TargetEventSink sink_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Pending> pending_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace infergate

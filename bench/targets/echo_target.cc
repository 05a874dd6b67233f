#include "bench/targets/echo_target.h"

#include "common/util/clock.h"

namespace infergate {

// The echo's j-th token for request `index`: any id outside unk, BOS and EOS will do.
int32_t EchoTarget::echo_token(uint64_t index, int j) const {
  return 3 + int32_t((index * 7919 + uint64_t(j) * 31) % uint64_t(vocab_size_ - 3));
}

EchoTarget::EchoTarget(double token_delay_us, int32_t vocab_size)
    : token_delay_us_(token_delay_us), vocab_size_(vocab_size) {}

EchoTarget::~EchoTarget() { stop(); }

void EchoTarget::start(TargetEventSink sink) {
  sink_ = std::move(sink);
  stopping_ = false;
  if (token_delay_us_ > 0) thread_ = std::thread([this] { delay_loop(); });
}

void EchoTarget::emit_all(uint64_t index, int max_tokens) {
  TargetEvent e;
  e.index = index;
  const int64_t t = now_ns();
  e.token_times_ns.assign(size_t(max_tokens), t);
  for (int j = 0; j < max_tokens; ++j) e.token_ids.push_back(echo_token(index, j));
  e.finished = true;
  e.finished_ns = t;
  sink_(std::move(e));
}

void EchoTarget::submit(uint64_t index, const std::vector<int32_t>&, int max_tokens) {
  if (token_delay_us_ <= 0) {
    emit_all(index, max_tokens);  // zero cost: completes on the caller's thread
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_.push_back({index, max_tokens, now_ns() + int64_t(token_delay_us_ * 1e3)});
  }
  wake_.notify_one();
}

// Emits one token per request per delay period, in submission order.
void EchoTarget::delay_loop() {
  const int64_t period = int64_t(token_delay_us_ * 1e3);
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    if (pending_.empty()) {
      wake_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
      continue;
    }
    Pending p = pending_.front();
    pending_.pop_front();
    lock.unlock();
    while (now_ns() < p.next_ns) std::this_thread::yield();
    TargetEvent e;
    e.index = p.index;
    e.token_times_ns.push_back(now_ns());
    e.token_ids.push_back(echo_token(p.index, p.emitted++));
    e.finished = --p.remaining <= 0;
    e.finished_ns = e.finished ? e.token_times_ns.back() : 0;
    sink_(std::move(e));
    lock.lock();
    if (p.remaining > 0) pending_.push_back({p.index, p.remaining, p.next_ns + period, p.emitted});
  }
  for (const Pending& p : pending_) sink_(end_event(p.index, RequestStatus::kAborted));
  pending_.clear();
}

void EchoTarget::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

}  // namespace infergate

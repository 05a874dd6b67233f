#include "bench/driver/load_driver.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <iterator>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <unordered_map>

#include "bench/load/arrival_process.h"
#include "bench/load/ramp_schedule.h"
#include "bench/load/wall_load_clock.h"

namespace infergate {

namespace {

// Token times reserved before the clock starts: 64 MiB in all, at most 32,768 per request.
constexpr int64_t kPreallocatedTokenTimes = int64_t(8) << 20;
constexpr int64_t kMaxReservedPerRequest = 32'768;

// How often the supervisor reports progress, sees a stop and judges a ramp's ended stages
// (also on every target event, on the wall clock).
constexpr int64_t kSupervisePeriodNs = 100'000'000;

// The furthest a schedule may reach (a year): load.duration_s, a ramp and a trace replay are
// held to a day, so this only keeps a double's offset from overflowing the 64-bit clock.
constexpr double kMaxOffsetS = 365.0 * 86'400;

int64_t offset_ns(double at_s) { return std::llround(std::clamp(at_s, 0.0, kMaxOffsetS) * 1e9); }

class LoadRun {
 public:
  LoadRun(Target& target, LoadClock& clock, const std::vector<BenchRequest>& requests,
          const DriverOptions& o)
      : target_(target), clock_(clock), requests_(requests), o_(o), load_(o.load) {
    if (load_.ramp) {  // the stages give the length
      ramp_.emplace(*load_.ramp);
      load_.duration_s = ramp_->duration_s();
    }
    if (load_.num_requests > 0) planned_ = load_.warmup_requests + load_.num_requests;
    if (load_.mode == LoadMode::kTrace) planned_ = int64_t(requests.size());
    preallocate_records();
  }

  DriverResult run() {
    target_.start([this](TargetEvent&& e) { on_event(std::move(e)); });
    // Time to get the generator going, or the start the load ranks agreed on.
    start_ns_ = o_.start_ns > 0 ? o_.start_ns : now_ns() + clock_.start_delay_ns();
    if (clock_.concurrent()) {
      std::thread generator([this] { generate(); });
      supervise();
      generator.join();
    } else {  // virtual time: the clock moves inside the generator's waits, then the drain's
      clock_.set_ticker(kSupervisePeriodNs, [this] {
        std::unique_lock<std::mutex> lock(mutex_);
        supervise_step(lock);
      });
      generate();
      drain();
    }
    target_.stop();  // aborts anything still in flight (only after a stop request)
    DriverResult r;
    drop_unsent_records();
    r.records.assign(std::make_move_iterator(records_.begin()),
                     std::make_move_iterator(records_.end()));
    r.incomplete = stopped();
    r.start_ns = start_ns_;
    r.end_ns = now_ns();
    r.sessions_completed = sessions_completed_;
    r.sessions_cut = sessions_cut_;
    r.sessions_cut_reason = sessions_cut_reason_;
    r.stage_judgements = std::move(judgements_);
    r.saturated_stage = saturated_stage_;
    return r;
  }

 private:
  void generate() {
    if (load_.mode == LoadMode::kOpen) return open_loop();
    if (load_.mode == LoadMode::kTrace) return trace_loop();
    if (load_.mode == LoadMode::kSessions) return sessions_loop();
    closed_loop();
  }

  int64_t now_ns() const { return clock_.now_ns(); }
  bool stopped() const { return o_.stop && o_.stop->load(); }

  // Until the scheduled time; a stop or a saturated ramp wakes it at once, however far off the
  // deadline (an hour's think time, a trace's gap). False when it was woken so: nothing more is
  // to be sent.
  bool wait_until(int64_t deadline_ns) {
    return clock_.sleep_until(deadline_ns, [this] { return halted(); });
  }
  // Wakes wait_until() once halted() has become true.
  void wake_waits() { clock_.wake_sleeps(); }
  // This rank's share of the global schedule (DriverOptions::rank).
  bool owns(uint64_t index) const { return int(index % uint64_t(o_.ranks)) == o_.rank; }
  // The global index of this rank's k-th request (closed loops and sessions).
  uint64_t global_index(uint64_t k) const { return k * uint64_t(o_.ranks) + uint64_t(o_.rank); }

  void drop_unsent_records() {
    if (o_.ranks == 1) {  // indices 0 .. sent_ - 1
      records_.resize(size_t(sent_));
      return;
    }
    std::deque<RequestRecord> sent;
    for (RequestRecord& r : records_) {
      if (r.sent_ns > 0) sent.push_back(std::move(r));
    }
    records_ = std::move(sent);
  }
  // No more sends: stopped, or a ramp's stage saturated the target.
  bool halted() const { return stopped() || saturated_.load(); }
  bool plan_done(uint64_t next_index, int64_t scheduled_ns) const {
    if (planned_ > 0) return int64_t(next_index) >= planned_;
    return scheduled_ns - start_ns_ >= std::llround(load_.duration_s * 1e9);
  }

  // Records (and their token-time buffers) for every request the plan is expected to send
  // are allocated before the clock starts: first-touch page faults on the generator's path
  // showed up as tens of microseconds of added latency in workloads/harness-overhead.json.
  void preallocate_records() {
    int64_t expected = planned_;
    if (expected == 0 && load_.mode == LoadMode::kOpen) {
      const double offered =
          ramp_ ? ramp_->cumulative(load_.duration_s) : load_.rate * load_.duration_s;
      expected = load_.warmup_requests + int64_t(offered * 1.1) + 16;
    }
    // The token-time reservations share one budget; a request beyond it, or longer than its
    // share, grows its buffer as tokens arrive rather than reserving max_tokens up front.
    int64_t budget = kPreallocatedTokenTimes;
    for (int64_t i = 0; i < expected; ++i) {
      if (!owns(uint64_t(i))) {  // another rank's
        records_.emplace_back();
        continue;
      }
      const int64_t want = requests_[size_t(i) % requests_.size()].max_tokens;
      const int64_t reserve =
          std::clamp<int64_t>(want, 0, std::min(budget, kMaxReservedPerRequest));
      records_.emplace_back().token_times_ns.reserve(size_t(reserve));
      budget -= reserve;
    }
  }

  void send(uint64_t index, int64_t scheduled_ns) {
    const BenchRequest& req = requests_[index % requests_.size()];
    {
      std::lock_guard<std::mutex> lock(mutex_);
      record_send(index, scheduled_ns, int(req.prompt.size()));
    }
    target_.submit(index, req.prompt, req.max_tokens);
  }

  // Under mutex_.
  RequestRecord& record_send(uint64_t index, int64_t scheduled_ns, int prompt_tokens) {
    while (index >= records_.size()) records_.emplace_back();
    RequestRecord& rec = records_[index];
    rec.index = index;
    rec.warmup = int64_t(index) < load_.warmup_requests;
    rec.scheduled_ns = scheduled_ns;
    rec.input_tokens = prompt_tokens;
    rec.sent_ns = now_ns();
    ++sent_;
    ++in_flight_;
    return rec;
  }

  // ---- sessions: each user holds one conversation at a time, turn after turn --------------

  struct User {
    size_t session = 0;
    size_t turn = 0;
    std::vector<int32_t> history;  // every message and answer so far
    std::vector<int32_t> answer;   // the ids of the turn in flight
    std::vector<int32_t> prompt;   // what the turn in flight sent (the target may hold it)
  };

  // This rank's share of `users` (users u with u % ranks == rank).
  int users_of_rank(int users) const { return (users - o_.rank + o_.ranks - 1) / o_.ranks; }

  // Under mutex_: the user takes the next unheld session, ready at `t`; false when none is left.
  bool next_session(size_t u, int64_t t) {
    if (next_session_ >= o_.sessions->size()) return false;
    users_[u] = User{next_session_, 0, {}, {}, {}};
    next_session_ += size_t(o_.ranks);  // the other ranks hold the sessions in between
    ready_users_.push_back({t, u});
    return true;
  }

  void sessions_loop() {
    const std::vector<BenchSession>& sessions = *o_.sessions;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      next_session_ = size_t(o_.rank);
      users_.resize(size_t(users_of_rank(load_.concurrency)));
      for (size_t u = 0; u < users_.size(); ++u) active_users_ += next_session(u, start_ns_);
    }
    for (uint64_t k = 0;; ++k) {
      const uint64_t i = global_index(k);
      int64_t ready_at;
      size_t u;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        clock_.wait_for(lock, LoadClock::kForever,
                        [&] { return !ready_users_.empty() || active_users_ == 0 || stopped(); });
        if (stopped() || ready_users_.empty()) break;
        std::tie(ready_at, u) = ready_users_.front();
        ready_users_.pop_front();
      }
      if (!wait_until(ready_at)) break;
      const BenchTurn* turn;
      std::vector<int32_t> prompt;  // a copy: a target may answer before submit() returns
      {
        std::lock_guard<std::mutex> lock(mutex_);
        User& user = users_[u];
        turn = &sessions[user.session].turns[user.turn];
        user.prompt = user.history;
        user.prompt.insert(user.prompt.end(), turn->message.begin(), turn->message.end());
        user.answer.clear();
        user_of_.emplace(i, u);
        RequestRecord& rec = record_send(i, ready_at, int(user.prompt.size()));
        rec.session = int(user.session);
        rec.turn = int(user.turn) + 1;
        prompt = user.prompt;
      }
      target_.submit(i, prompt, turn->max_tokens);
    }
    finish_generating();
  }

  // Under mutex_: a turn of a session ended; the user's next turn (or session) becomes ready.
  void turn_ended(const TargetEvent& e) {
    const auto it = user_of_.find(e.index);
    if (it == user_of_.end()) return;
    const size_t u = it->second;
    user_of_.erase(it);
    User& user = users_[u];
    const BenchSession& session = (*o_.sessions)[user.session];
    const int expected = session.turns[user.turn].max_tokens;
    std::string cut;
    if (e.status != RequestStatus::kOk) cut = "a turn's answer failed";
    if (cut.empty() && int(user.answer.size()) != expected) {
      cut = "the target gave " + std::to_string(user.answer.size()) + " token ids for " +
            std::to_string(expected) +
            " tokens: the next turn needs the answer's ids (an HTTP server must stream "
            "token_ids, as infergate serve does and vLLM's return_token_ids)";
    }
    const int64_t ready = e.finished_ns + int64_t(load_.think_time_s * 1e9);
    if (cut.empty() && user.turn + 1 < session.turns.size()) {
      user.history = std::move(user.prompt);
      user.history.insert(user.history.end(), user.answer.begin(), user.answer.end());
      ++user.turn;
      user.prompt.clear();
      ready_users_.push_back({ready, u});
      return;
    }
    if (cut.empty()) {
      ++sessions_completed_;
    } else {
      ++sessions_cut_;
      if (sessions_cut_reason_.empty()) sessions_cut_reason_ = cut;
    }
    if (!next_session(u, ready)) --active_users_;
  }

  void open_loop() {
    // A ramp maps a unit-rate process onto its own rate (RampSchedule::offset_of_cumulative).
    LoadSpec process = load_;
    if (ramp_) process.rate = 1;
    ArrivalProcess arrivals = ArrivalProcess::from_load(process, o_.seed);
    double offset_s = 0;
    for (uint64_t i = 0;; ++i) {
      const double at_s = ramp_ ? ramp_->offset_of_cumulative(offset_s) : offset_s;
      const int64_t scheduled = start_ns_ + offset_ns(at_s);
      if (plan_done(i, scheduled) || halted()) break;
      if (!owns(i)) {  // another load rank sends it
        offset_s += arrivals.next_gap_s();
        continue;
      }
      if (!wait_until(scheduled)) break;
      if (load_.max_concurrency > 0) {
        std::unique_lock<std::mutex> lock(mutex_);
        clock_.wait_for(lock, LoadClock::kForever,
                        [&] { return in_flight_ < load_.max_concurrency || stopped(); });
      }
      if (halted()) break;
      send(i, scheduled);
      offset_s += arrivals.next_gap_s();
    }
    finish_generating();
  }

  // A replayed trace: request i at its own time (trace_dataset.h), whatever the target does.
  void trace_loop() {
    for (uint64_t i = 0; i < requests_.size() && !stopped(); ++i) {
      if (!owns(i)) continue;  // another load rank sends it
      const int64_t scheduled = start_ns_ + offset_ns(requests_[i].arrival_s);
      if (!wait_until(scheduled)) break;
      send(i, scheduled);
    }
    finish_generating();
  }

  void closed_loop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (ramp_) {  // this rank's share of the joins
        const std::vector<double> joins = ramp_->user_joins_s();
        for (size_t j = 0; j < joins.size(); ++j) {
          if (owns(j)) joins_.push_back(joins[j]);
        }
      } else {
        for (int u = 0; u < users_of_rank(load_.concurrency); ++u) ready_.push_back(start_ns_);
      }
    }
    wait_until(start_ns_);  // a stop is seen by next_ready_user()
    int64_t ready_at;
    for (uint64_t k = 0; next_ready_user(ready_at); ++k) {
      const uint64_t i = global_index(k);
      if (plan_done(i, ready_at)) break;
      send(i, ready_at);  // a user sends the moment its previous request ended (or it joined)
    }
    finish_generating();
  }

  // The next user to send: a ramp's user whose time to join has come, else one whose request
  // ended; false once halted.
  bool next_ready_user(int64_t& ready_at) {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      if (halted()) return false;
      const int64_t join =
          next_join_ < joins_.size() ? start_ns_ + offset_ns(joins_[next_join_]) : 0;
      if (join > 0 && now_ns() >= join) {
        ++next_join_;
        ready_at = join;
        return true;
      }
      if (!ready_.empty()) {
        ready_at = ready_.front();
        ready_.pop_front();
        return true;
      }
      if (join == 0 && in_flight_ == 0) return false;  // no user of this rank is left
      clock_.wait(lock, join > 0 ? join : LoadClock::kForever);
    }
  }

  // Under mutex_: each ramp stage that has ended is judged once (when the run is over, the
  // rest too) until one is past a bound of load.stop_when, which stops the sends.
  void judge_ended_stages(bool running) {
    const int64_t now = now_ns();
    while (saturated_stage_ < 0 && int(judgements_.size()) < ramp_->stages()) {
      const int stage = int(judgements_.size());
      const int64_t end = start_ns_ + offset_ns(ramp_->stage_start_s(stage + 1));
      if (running && now < end) return;
      judgements_.push_back(judge_stage(stage_records(stage), now, load_.stop_when));
      if (saturated_stage_ < 0 && judgements_.back().saturated) {
        saturated_stage_ = stage;
        saturated_ = true;
        clock_.notify_all();  // the generator stops sending
        wake_waits();
      }
    }
  }

  // Under mutex_: the measured requests scheduled in a ramp's stage.
  std::vector<const RequestRecord*> stage_records(int stage) const {
    std::vector<const RequestRecord*> out;
    for (int64_t i = 0; i < sent_; ++i) {
      const RequestRecord& r = records_[size_t(i)];
      const double at_s = double(r.scheduled_ns - start_ns_) * 1e-9;
      if (!r.warmup && r.scheduled_ns > 0 && ramp_->stage_of(at_s) == stage) out.push_back(&r);
    }
    return out;
  }

  void finish_generating() {
    std::lock_guard<std::mutex> lock(mutex_);
    generating_ = false;
    clock_.notify_all();
  }

  void on_event(TargetEvent&& e) {
    std::lock_guard<std::mutex> lock(mutex_);
    RequestRecord& r = records_[e.index];
    if (o_.sessions) {
      if (const auto it = user_of_.find(e.index); it != user_of_.end()) {
        std::vector<int32_t>& answer = users_[it->second].answer;
        answer.insert(answer.end(), e.token_ids.begin(), e.token_ids.end());
      }
    }
    if (!e.token_times_ns.empty()) {
      if (r.first_token_ns == 0) {
        r.first_token_ns = e.token_times_ns.front();
        ttft_sum_ms_ += double(r.first_token_ns - r.scheduled_ns) * 1e-6;
        ++ttft_count_;
      }
      r.token_times_ns.insert(r.token_times_ns.end(), e.token_times_ns.begin(),
                              e.token_times_ns.end());
      r.output_tokens = int(r.token_times_ns.size());
    }
    if (e.sent_ns > 0) r.sent_ns = e.sent_ns;
    if (e.input_tokens > 0) r.input_tokens = e.input_tokens;
    r.cached_tokens = std::max(r.cached_tokens, e.cached_tokens);
    r.preemptions = std::max(r.preemptions, e.preemptions);
    if (e.kv_transfer) r.kv_transfer = std::move(e.kv_transfer);
    if (e.output_problem) r.output_problem = std::move(e.output_problem);
    if (e.reasoning_tokens) r.reasoning_tokens = e.reasoning_tokens;
    if (!e.finished) return;
    r.finished_ns = e.finished_ns;
    r.status = e.status;
    r.error = std::move(e.error);
    --in_flight_;
    ++done_;
    if (load_.mode == LoadMode::kClosed) ready_.push_back(e.finished_ns);
    if (o_.sessions) turn_ended(e);
    clock_.notify_all();
  }

  // On the caller's thread: progress reports, and the wait for every sent request to end.
  void supervise() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      clock_.wait(lock, now_ns() + kSupervisePeriodNs);
      if (supervise_step(lock)) return;
    }
  }

  // Under mutex_ (released for the progress callback): true when the run is over.
  bool supervise_step(std::unique_lock<std::mutex>& lock) {
    if (o_.on_progress) {
      if (ttft_count_ > 0) recent_ttft_ms_ = ttft_sum_ms_ / double(ttft_count_);
      DriverProgress p{done_, planned_, now_ns() - start_ns_, recent_ttft_ms_};
      ttft_sum_ms_ = 0;
      ttft_count_ = 0;
      lock.unlock();
      o_.on_progress(p);
      lock.lock();
    }
    // A signal handler may only set the flag: it is seen here, within 100 ms, and every wait
    // of the generator is woken from here.
    if (stopped()) {
      clock_.notify_all();
      wake_waits();
      return true;
    }
    if (ramp_ && !load_.stop_when.empty()) judge_ended_stages(generating_ || in_flight_ > 0);
    return !generating_ && in_flight_ == 0;
  }

  // Virtual time, once the generator is done: the supervisor's steps as the clock ticks, until
  // every sent request has ended.
  void drain() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!supervise_step(lock)) clock_.wait(lock, LoadClock::kForever);
  }

  Target& target_;
  LoadClock& clock_;
  const std::vector<BenchRequest>& requests_;
  const DriverOptions& o_;
  LoadSpec load_;
  std::optional<RampSchedule> ramp_;
  int64_t planned_ = 0;
  int64_t start_ns_ = 0;
  std::mutex mutex_;  // what the generator, the target's events and the supervisor share
  // A deque never relocates: growing a vector of records mid-run stalled the generator for
  // up to 140 ms at every doubling (measured with workloads/harness-overhead.json).
  std::deque<RequestRecord> records_;
  std::deque<int64_t> ready_;  // closed loop: times at which users became free
  std::vector<double> joins_;  // a closed ramp: when each user joins (s from the start)
  size_t next_join_ = 0;
  std::vector<StageJudgement> judgements_;  // a ramp's ended stages, judged
  int saturated_stage_ = -1;
  std::atomic<bool> saturated_ = false;
  // Sessions: each user's conversation, the users ready for their next turn (in time order,
  // as answers end), the request each user has in flight, and how the sessions ended.
  std::vector<User> users_;
  std::deque<std::pair<int64_t, size_t>> ready_users_;
  std::unordered_map<uint64_t, size_t> user_of_;
  size_t next_session_ = 0;
  int active_users_ = 0;
  int64_t sessions_completed_ = 0, sessions_cut_ = 0;
  std::string sessions_cut_reason_;
  int64_t sent_ = 0;
  int in_flight_ = 0;
  int64_t done_ = 0;
  bool generating_ = true;
  double ttft_sum_ms_ = 0;
  int64_t ttft_count_ = 0;
  double recent_ttft_ms_ = 0;  // kept until newer first tokens arrive
};

}  // namespace

DriverResult run_load(Target& target, LoadClock& clock, const std::vector<BenchRequest>& requests,
                      const DriverOptions& options) {
  if (requests.empty() && !options.sessions) {
    throw std::invalid_argument("run_load: the dataset has no requests");
  }
  if (options.sessions && options.sessions->empty()) {
    throw std::invalid_argument("run_load: the dataset has no sessions");
  }
  return LoadRun(target, clock, requests, options).run();
}

DriverResult run_load(Target& target, const std::vector<BenchRequest>& requests,
                      const DriverOptions& options) {
  WallLoadClock clock;
  return run_load(target, clock, requests, options);
}

}  // namespace infergate

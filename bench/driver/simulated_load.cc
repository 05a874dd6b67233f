#include "bench/driver/simulated_load.h"

#include <cmath>
#include <deque>
#include <limits>
#include <stdexcept>
#include <string>

#include "bench/load/arrival_process.h"

namespace infergate {

namespace {

constexpr int64_t kNever = std::numeric_limits<int64_t>::max();

class SimulatedLoad {
 public:
  SimulatedLoad(SimulatedCluster& cluster, const std::vector<BenchRequest>& requests,
                const SimulatedLoadOptions& o)
      : cluster_(cluster),
        requests_(requests),
        o_(o),
        load_(o.driver.load),
        arrivals_(load_.mode == "open" ? ArrivalProcess::from_load(load_, o.driver.seed)
                                       : ArrivalProcess::from_load(LoadSpec{}, 0)) {
    if (load_.num_requests > 0) planned_ = load_.warmup_requests + load_.num_requests;
    if (load_.mode == "trace") planned_ = int64_t(requests.size());
  }

  DriverResult run() {
    start_ns_ = cluster_.now_ns();
    next_sample_ns_ = start_ns_;
    if (load_.mode == "open") {
      next_open_ns_ = start_ns_;
    } else if (load_.mode == "closed") {
      for (int u = 0; u < load_.concurrency; ++u) ready_.push_back(start_ns_);
    }
    int idle_events = 0;
    for (;;) {
      if (o_.driver.stop && o_.driver.stop->load()) break;
      sample_until(cluster_.now_ns());
      admit();
      cluster_.start_steps();
      const int64_t before = cluster_.now_ns();
      const int64_t next = std::min(cluster_.next_event_ns(), next_arrival());
      if (next == kNever) {
        if (cluster_.has_unfinished()) stalled();
        break;
      }
      deliver(cluster_.advance_to(next));
      idle_events = cluster_.now_ns() == before ? idle_events + 1 : 0;
      if (idle_events > 10'000) stalled();
    }
    DriverResult r;
    r.records = std::move(records_);
    r.incomplete = o_.driver.stop && o_.driver.stop->load();
    r.start_ns = start_ns_;
    r.end_ns = cluster_.now_ns();
    return r;
  }

 private:
  [[noreturn]] void stalled() const {
    throw std::logic_error("simulation: the workers made no progress with " +
                           std::to_string(in_flight_) + " requests in flight");
  }

  bool plan_done(uint64_t next_index, int64_t scheduled_ns) const {
    if (planned_ > 0) return int64_t(next_index) >= planned_;
    return double(scheduled_ns - start_ns_) * 1e-9 >= load_.duration_s;
  }

  // When the next request may be sent, or kNever when the plan is done.
  int64_t next_arrival() const {
    if (load_.mode == "trace") {  // each request at its own time
      if (plan_done(next_index_, 0)) return kNever;
      return start_ns_ + int64_t(std::llround(requests_[next_index_].arrival_s * 1e9));
    }
    if (load_.mode == "open") {
      if (plan_done(next_index_, next_open_ns_)) return kNever;
      if (load_.max_concurrency > 0 && in_flight_ >= load_.max_concurrency) return kNever;
      return next_open_ns_;
    }
    if (ready_.empty() || plan_done(next_index_, ready_.front())) return kNever;
    return ready_.front();
  }

  void admit() {
    for (;;) {
      const int64_t t = next_arrival();
      if (t == kNever || t > cluster_.now_ns()) return;
      send(t);
      if (load_.mode == "trace") continue;
      if (load_.mode == "open") {
        offset_s_ += arrivals_.next_gap_s();
        next_open_ns_ = start_ns_ + int64_t(offset_s_ * 1e9);
      } else {
        ready_.pop_front();
      }
    }
  }

  void send(int64_t scheduled_ns) {
    const uint64_t index = next_index_++;
    const BenchRequest& req = requests_[index % requests_.size()];
    RequestRecord& rec = records_.emplace_back();
    rec.index = index;
    rec.warmup = int64_t(index) < load_.warmup_requests;
    rec.scheduled_ns = scheduled_ns;
    rec.sent_ns = cluster_.now_ns();
    rec.input_tokens = int(req.prompt.size());
    SamplingParams params;
    params.max_tokens = req.max_tokens;
    params.ignore_eos = true;  // benchmarks need fixed output lengths
    if (!o_.sampling.is_default()) {
      params.temperature = float(o_.sampling.temperature);
      params.top_k = o_.sampling.top_k;
      params.top_p = float(o_.sampling.top_p);
      params.seed = SamplingSpec::request_seed(o_.sampling.seed, index);
    }
    ++in_flight_;
    try {
      cluster_.submit(index, req.prompt, params);
    } catch (const RequestError& e) {
      finish(rec, RequestStatus::kError, e.what());
    }
  }

  void finish(RequestRecord& rec, RequestStatus status, std::string error) {
    rec.finished_ns = cluster_.now_ns();
    rec.status = status;
    rec.error = std::move(error);
    --in_flight_;
    if (load_.mode == "closed") ready_.push_back(rec.finished_ns);
  }

  void deliver(std::vector<RequestOutput> outputs) {
    for (RequestOutput& o : outputs) {
      RequestRecord& rec = records_[size_t(std::stoull(o.id))];
      if (!o.token_times_ns.empty()) {
        if (rec.first_token_ns == 0) rec.first_token_ns = o.token_times_ns.front();
        rec.token_times_ns.insert(rec.token_times_ns.end(), o.token_times_ns.begin(),
                                  o.token_times_ns.end());
        rec.output_tokens = int(rec.token_times_ns.size());
      }
      rec.cached_tokens = std::max(rec.cached_tokens, o.num_cached_prompt_tokens);
      rec.preemptions = std::max(rec.preemptions, o.num_preemptions);
      if (!o.finished) continue;
      const RequestStatus status = o.finish_reason == FinishReason::kAbort ? RequestStatus::kAborted
                                   : o.finish_reason == FinishReason::kError ? RequestStatus::kError
                                                                             : RequestStatus::kOk;
      finish(rec, status, o.error);
    }
  }

  void sample_until(int64_t now) {
    while (o_.on_sample && next_sample_ns_ <= now) {
      o_.on_sample(next_sample_ns_, cluster_);
      next_sample_ns_ += o_.sample_interval_ns;
    }
  }

  SimulatedCluster& cluster_;
  const std::vector<BenchRequest>& requests_;
  const SimulatedLoadOptions& o_;
  LoadSpec load_;
  ArrivalProcess arrivals_;
  int64_t planned_ = 0;
  int64_t start_ns_ = 0;
  int64_t next_sample_ns_ = 0;
  int64_t next_open_ns_ = 0;
  double offset_s_ = 0;
  uint64_t next_index_ = 0;
  std::deque<int64_t> ready_;  // closed loop: times at which users became free
  std::vector<RequestRecord> records_;
  int in_flight_ = 0;
};

}  // namespace

DriverResult run_simulated_load(SimulatedCluster& cluster,
                                const std::vector<BenchRequest>& requests,
                                const SimulatedLoadOptions& options) {
  if (requests.empty()) {
    throw std::invalid_argument("run_simulated_load: the dataset has no requests");
  }
  return SimulatedLoad(cluster, requests, options).run();
}

}  // namespace infergate

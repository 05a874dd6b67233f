#include "bench/targets/router_target.h"

#include "bench/targets/kv_handoff_figures.h"

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "bench/http/http_get_json.h"
#include "bench/telemetry/prometheus_text.h"
#include "common/util/clock.h"

namespace infergate {

namespace {

constexpr double kStartTimeoutS = 600;   // a replica loads its model before it listens
constexpr double kAskTimeoutS = 10;      // the router's own /health and /metrics
constexpr double kPollIntervalS = 0.25;  // the replicas' load, for the timeline
constexpr double kKillWaitS = 2;         // the longest a fault waits for a busy replica

double value_of(const std::map<std::string, double>& m, const std::string& key) {
  const auto it = m.find(key);
  return it == m.end() ? 0 : it->second;
}

// Waits until `replicas` (decode) and `prefill` workers are healthy; throws naming what the router
// said last.
void wait_healthy(const HttpUrl& url, int replicas, int prefill) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  std::string last;
  while (std::chrono::steady_clock::now() < deadline) {
    try {
      const nlohmann::json h = http_get_json(url, "/health", {}, kAskTimeoutS);
      if (h.value("healthy_replicas", 0) == replicas &&
          h.value("healthy_prefill_replicas", 0) == prefill) {
        return;
      }
      last = h.dump();
    } catch (const std::exception& e) {
      last = e.what();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  throw std::runtime_error("the router at " + url.text() + " did not have " +
                           std::to_string(replicas) + " healthy replicas within 60 s: " + last);
}

int decode_workers(const RouterTargetSpec& r) { return r.replicas - r.prefill_replicas; }

std::vector<std::string> router_argv(const std::string& program, const TargetSpec& spec,
                                     const std::string& replica_workload) {
  std::vector<std::string> argv = {
      program, "router", "--replicas", std::to_string(decode_workers(spec.router)), "--port", "0",
      "--policy", spec.router.policy, "--restart-delay-s",
      std::to_string(spec.router.restart_delay_s), "--health-interval-s", "0.2",
      // token prompts hashed by the replicas' KV block
      "--token-block-size", std::to_string(spec.engine.block_size), "--replica-start-timeout-s",
      std::to_string(int(kStartTimeoutS)), "--workload", replica_workload};
  if (spec.router.pin_replicas) argv.push_back("--pin-replicas");
  if (spec.router.prefill_replicas > 0) {
    argv.insert(argv.end(), {"--prefill-replicas", std::to_string(spec.router.prefill_replicas)});
    if (spec.router.kv_read_rate_mb_s > 0) {  // a serve flag: the router hands it to the workers
      argv.insert(argv.end(),
                  {"--kv-read-rate-mb-s", std::to_string(spec.router.kv_read_rate_mb_s)});
    }
  }
  return argv;
}

// One worker list of the router's /health.
std::vector<RouterRecord::Replica> live_workers(const nlohmann::json& list) {
  std::vector<RouterRecord::Replica> out;
  for (const nlohmann::json& r : list) {
    RouterRecord::Replica x;
    x.url = r.at("url").get<std::string>();
    x.in_flight = r.value("outstanding", int64_t(0));
    x.healthy = r.value("healthy", false);
    out.push_back(x);
  }
  return out;
}

// A worker list's counters off /metrics (`prefix`: "" for decode workers, "prefill-").
std::vector<RouterRecord::Replica> worker_counters(const nlohmann::json& list,
                                                   const std::map<std::string, double>& m,
                                                   const std::string& prefix) {
  const std::string p = "infergate_router:";
  std::vector<RouterRecord::Replica> out;
  for (size_t i = 0; i < list.size(); ++i) {
    RouterRecord::Replica x;
    x.url = list[i].at("url").get<std::string>();
    const std::string labels =
        "{replica=\"" + prefix + std::to_string(i) + "\",url=\"" + x.url + "\"}";
    x.routed = int64_t(value_of(m, p + "replica_routed_total" + labels));
    x.succeeded = int64_t(value_of(m, p + "replica_succeeded_total" + labels));
    x.failed = int64_t(value_of(m, p + "replica_failed_total" + labels));
    x.restarts = int64_t(value_of(m, p + "replica_restarts_total" + labels));
    x.prefix_hit_rate = value_of(m, p + "replica_prefix_hit_rate" + labels);
    out.push_back(x);
  }
  return out;
}

}  // namespace

RouterTarget::RouterTarget(const std::string& program, const TargetSpec& spec,
                           const std::string& replica_workload, std::vector<FaultSpec> faults,
                           const SamplingSpec& sampling, std::optional<DatasetTokenizer> tokenizer,
                           std::shared_ptr<const StructuredRequests> structured, bool constrain)
    : policy_(spec.router.policy), workers_(spec.router), faults_(std::move(faults)) {
  router_ = std::make_unique<ChildServer>("router", router_argv(program, spec, replica_workload),
                                          kStartTimeoutS);
  wait_healthy(router_->url(), decode_workers(workers_), workers_.prefill_replicas);
  TargetSpec client = spec;
  client.type = "openai";
  client.url = router_->url().text();
  OpenAiEndpoint endpoint = resolve_openai_endpoint(client, std::move(tokenizer));
  endpoint.sampling = sampling;
  endpoint.structured = std::move(structured);
  endpoint.constrain = constrain;
  client_ = std::make_unique<OpenAiTarget>(std::move(endpoint));
}

RouterTarget::~RouterTarget() {
  stop();
  router_->terminate();
}

void RouterTarget::start(TargetEventSink sink) {
  started_ns_ = now_ns();
  // Each answer's handoff record, for the repetition's disaggregation figures.
  client_->start([this, sink = std::move(sink)](TargetEvent&& e) {
    if (e.finished && e.status == RequestStatus::kOk && e.kv_transfer) note_handoff(e);
    sink(std::move(e));
  });
  monitor_thread_ = std::thread([this] { monitor(); });
}

void RouterTarget::submit(uint64_t index, const std::vector<int32_t>& prompt, int max_tokens) {
  client_->submit(index, prompt, max_tokens);
  const std::lock_guard lock(mutex_);
  ++submitted_;
  wake_.notify_all();
}

void RouterTarget::monitor() {
  std::vector<bool> done(faults_.size(), false);
  std::unique_lock lock(mutex_);
  double next_poll_s = 0;
  while (!stopping_) {
    const double elapsed_s = double(now_ns() - started_ns_) * 1e-9;
    double next_s = next_poll_s;
    for (size_t i = 0; i < faults_.size(); ++i) {
      if (done[i]) continue;
      const FaultSpec& f = faults_[i];
      const bool due = f.after_requests > 0 ? submitted_ >= f.after_requests : elapsed_s >= f.at_s;
      if (due) {
        lock.unlock();
        RouterRecord::Fault record = kill_replica(f.kill_replica);
        lock.lock();
        injected_.push_back(record);
        done[i] = true;
      } else if (f.after_requests == 0) {
        next_s = std::min(next_s, f.at_s);
      }
    }
    if (elapsed_s >= next_poll_s) {
      lock.unlock();
      poll_replicas();
      lock.lock();
      next_poll_s = elapsed_s + kPollIntervalS;
      next_s = std::min(next_s, next_poll_s);
    }
    const double wait_s = std::max(next_s - double(now_ns() - started_ns_) * 1e-9, 0.001);
    wake_.wait_for(lock, std::chrono::duration<double>(wait_s));
  }
}

void RouterTarget::note_handoff(const TargetEvent& e) {
  const KvTransferRecord& k = *e.kv_transfer;
  KvHandoffRecord h{k.read_ms, k.prefill_ms, k.bytes, !k.read_fallback.empty(), k.blocks_read > 0,
                    0};
  if (!e.token_times_ns.empty() && e.sent_ns > 0 && e.token_times_ns.front() > e.sent_ns) {
    h.ttft_share = k.read_ms / (double(e.token_times_ns.front() - e.sent_ns) * 1e-6);
  }
  const std::lock_guard lock(mutex_);
  handoffs_.push_back(h);
}

void RouterTarget::poll_replicas() {
  RouterRecord live;
  live.live = true;
  live.policy = policy_;
  try {
    const nlohmann::json h = http_get_json(router_->url(), "/health", {}, kAskTimeoutS);
    live.replicas = live_workers(h.at("replicas"));
    if (workers_.prefill_replicas > 0) {
      live.disaggregation.emplace();
      live.disaggregation->kv_read_rate_cap_mb_s = workers_.kv_read_rate_mb_s;
      live.disaggregation->prefill = live_workers(h.at("prefill_replicas"));
    }
  } catch (const std::exception&) {
    return;  // 503 while no replica is healthy is not an answer with replicas: keep the last
  }
  const std::lock_guard lock(mutex_);
  live_ = std::move(live);
}

RouterRecord::Fault RouterTarget::kill_replica(int replica) {
  RouterRecord::Fault f;
  f.replica = replica;
  f.at_ms = double(now_ns() - started_ns_) * 1e-6;
  try {
    // A fault is meant to cut streams: wait (bounded) until the replica holds a request, since
    // same-length answers finish together and the next ones may not have reached it yet.
    const int64_t give_up_ns = now_ns() + int64_t(kKillWaitS * 1e9);
    nlohmann::json r;
    do {
      const nlohmann::json h = http_get_json(router_->url(), "/health", {}, kAskTimeoutS);
      r = h.at("replicas").at(size_t(replica));
      if (r.value("outstanding", int64_t(0)) > 0 || now_ns() >= give_up_ns) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    } while (true);
    f.at_ms = double(now_ns() - started_ns_) * 1e-6;
    f.pid = r.at("pid").get<int>();
    f.in_flight = r.value("outstanding", int64_t(0));
    if (::kill(f.pid, SIGKILL) != 0) f.error = "kill failed";
  } catch (const std::exception& e) {  // e.g. the router was still restarting it
    f.error = e.what();
  }
  return f;
}

void RouterTarget::stop() {
  {
    const std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
    wake_.notify_all();
  }
  if (monitor_thread_.joinable()) monitor_thread_.join();
  client_->stop();
  RouterRecord record;
  try {
    record = read_router();
  } catch (const std::exception& e) {
    record.policy = policy_;
    RouterRecord::Fault note;
    note.error = std::string("the router's figures could not be read: ") + e.what();
    record.faults.push_back(note);
  }
  const std::lock_guard lock(mutex_);
  record.faults.insert(record.faults.end(), injected_.begin(), injected_.end());
  final_ = record;
}

RouterRecord RouterTarget::read_router() const {
  const std::string metrics_url = router_->url().text() + "/metrics";
  const auto m = prometheus_value_map(parse_prometheus_text(
      http_get_text(router_->url(), "/metrics", {}, kAskTimeoutS), metrics_url));
  const nlohmann::json h = http_get_json(router_->url(), "/health", {}, kAskTimeoutS);
  const std::string p = "infergate_router:";
  RouterRecord r;
  r.policy = policy_;
  r.prefix_hit_rate_achieved = value_of(m, p + "prefix_hit_rate{kind=\"achieved\"}");
  r.prefix_hit_rate_oracle = value_of(m, p + "prefix_hit_rate{kind=\"oracle\"}");
  r.retries = int64_t(value_of(m, p + "retries_total"));
  r.broken_streams = int64_t(value_of(m, p + "broken_streams_total"));
  r.migrations = int64_t(value_of(m, p + "migrations_total"));
  r.migrations_failed = int64_t(value_of(m, p + "migrations_failed_total"));
  if (r.migrations > 0) {
    r.migration_delay_mean_ms =
        value_of(m, p + "migration_delay_seconds_sum") * 1e3 / double(r.migrations);
  }
  r.migration_delay_max_ms = value_of(m, p + "migration_delay_seconds_max") * 1e3;
  r.replicas = worker_counters(h.at("replicas"), m, "");
  if (workers_.prefill_replicas > 0) {
    r.disaggregation = handoff_figures();
    r.disaggregation->prefill = worker_counters(h.at("prefill_replicas"), m, "prefill-");
    r.disaggregation->prefills_exported =
        int64_t(value_of(m, p + "prefills_total{outcome=\"exported\"}"));
    r.disaggregation->prefill_fallbacks =
        int64_t(value_of(m, p + "prefills_total{outcome=\"fallback\"}"));
  }
  return r;
}

RouterRecord::Disaggregation RouterTarget::handoff_figures() const {
  const std::lock_guard lock(mutex_);
  return kv_handoff_figures(handoffs_, workers_.kv_read_rate_mb_s);
}

TargetStats RouterTarget::stats() const {
  TargetStats s = client_->stats();
  const std::lock_guard lock(mutex_);
  s.router = final_ ? final_ : live_;
  return s;
}

}  // namespace infergate

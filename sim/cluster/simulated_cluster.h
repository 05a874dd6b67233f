// The workers of a simulated target in virtual time (docs/simulator.md, "Replicas and
// disaggregation"): one simulated engine, or data-parallel replicas behind the router, or
// prefill and decode workers. Each worker is a real Engine over a SimulatedExecutor on a clock
// of its own; the router's own replica set and policies (router/policy/replica_set.h) choose a
// worker for each request from the requests each holds; a prefill worker's prompt KV reaches a
// decode worker over a link model (latency + bytes / bandwidth, each decode worker's reads one
// after another on its own link), after which the decode worker adopts the blocks into its prefix
// cache and computes only the prompt's tail, as `serve --role decode` does.
//
// Time moves by events, in this order at one instant: steps that end (their outputs become
// visible only then), KV reads that end, the caller's arrivals, and last every idle worker with
// work starts a step. Nothing reads the wall clock: the same inputs give the same outputs.
#pragma once

#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "bench/targets/kv_handoff_figures.h"
#include "common/results/target_stats.h"
#include "engine/core/engine.h"
#include "router/policy/replica_set.h"
#include "sim/cluster/simulated_deployment.h"
#include "sim/virtual_clock.h"

namespace infergate {

struct SimulatedWorkers {
  bool routed = false;       // a router in front (false: one engine, no router record)
  int replicas = 1;          // workers in all
  int prefill_replicas = 0;  // of them, prefill workers; 0: every worker colocated
  RoutingPolicy policy = RoutingPolicy::kPrefixAware;
  double kv_read_rate_mb_s = 0;  // each decode worker's reads capped at this (0: the link's)
  uint64_t seed = 1;
};

class SimulatedCluster {
 public:
  static constexpr int64_t kNever = std::numeric_limits<int64_t>::max();

  // Throws std::invalid_argument for a layout that does not fit (as make_engine does) or
  // workers out of range.
  SimulatedCluster(const SimulatedDeployment& deployment, const EngineConfig& config,
                   const SimulatedWorkers& workers);

  int64_t now_ns() const { return now_; }
  // Sends request `index` now: to a prefill worker first when disaggregated, else to a serving
  // worker. `prompt` must outlive the request. Throws RequestError as Engine::add_request does;
  // nothing is then held for it.
  void submit(uint64_t index, const std::vector<int32_t>& prompt, const SamplingParams& params);
  // Starts a step, at now, on every idle worker that has work.
  void start_steps();
  // When the next step or KV read ends; kNever when none is under way.
  int64_t next_event_ns() const;
  // Moves to `t` (not before now) and runs what ends by then; returns what the serving workers
  // produced for the caller's requests (ids are their indexes), a prefill worker's never.
  std::vector<RequestOutput> advance_to(int64_t t);
  bool has_unfinished() const;

  // Every worker's engine statistics together (memory summed over the workers' devices).
  EngineStats stats() const;
  // The router's record (routed, hit rates, the handoff figures); nullopt without a router.
  std::optional<RouterRecord> router_record() const;
  int workers() const { return int(workers_.size()); }
  int32_t vocab_size() const { return workers_.back()->engine->model_config().vocab_size; }
  int devices() const;  // all workers'

 private:
  enum class Role { kServing, kPrefill };
  struct Worker {
    Role role = Role::kServing;
    int pool_index = 0;  // within its pool
    VirtualClock clock;
    std::unique_ptr<Engine> engine;
    bool stepping = false;
    int64_t step_end_ns = 0;
    std::vector<RequestOutput> outputs;  // of the step under way, seen at its end
    int64_t link_free_ns = 0;            // a decode worker's KV link: free from then on
  };
  struct Request {
    const std::vector<int32_t>* prompt = nullptr;
    SamplingParams params;
    std::vector<uint64_t> prefix;  // the router's hashes of the prompt
    int serving = -1, prefill = -1;
    int64_t sent_ns = 0, prefill_begin_ns = 0;
    int handoff = -1;  // its entry in handoffs_, when disaggregated
    bool answered = false;
  };
  struct KvRead {
    uint64_t index = 0;
    int decode = 0;
    int first_block = 0, num_blocks = 0;
  };
  // False when every worker of the pool has its limit in flight (the request then waits).
  bool route(uint64_t index);
  bool route_to_decode(uint64_t index);
  void send_to_serving(uint64_t index, int worker);
  void send_to_prefill(uint64_t index, int worker);
  // Requests that waited for room, in order, as long as there is room; a request refused then
  // ends with an error output.
  void dispatch_waiting();
  void fail_late(uint64_t index, const std::string& error);
  void finish_read(const KvRead& read);
  void deliver(Worker& worker, std::vector<RequestOutput>& out);
  void note_first_token(Request& request, const RequestOutput& output);
  Worker& serving_worker(int pool_index) { return *workers_[size_t(prefill_count_ + pool_index)]; }
  RouterRecord::Disaggregation handoff_figures() const;

  SimulatedWorkers spec_;
  int prefill_count_ = 0;
  int block_size_ = 16;
  double kv_bytes_per_token_ = 0;
  LinkSpec kv_link_;
  double kv_bandwidth_bytes_s_ = 0;
  int devices_per_worker_ = 1;
  int busy_host_ranks_ = 0;  // cpu: the ranks of the workers stepping now (each step reads it)
  std::vector<std::unique_ptr<Worker>> workers_;  // prefill workers first
  std::unique_ptr<ReplicaSet> serving_set_, prefill_set_;
  std::unordered_map<uint64_t, Request> requests_;
  std::deque<uint64_t> waiting_;         // every worker of their first pool full
  std::deque<uint64_t> waiting_decode_;  // prefilled; every decode worker full
  std::vector<RequestOutput> late_;      // requests refused after their submit
  std::multimap<std::pair<int64_t, uint64_t>, KvRead> reads_;  // by (end, order)
  uint64_t read_order_ = 0;
  std::vector<KvHandoffRecord> handoffs_;  // one per disaggregated request
  int64_t now_ = 0;
};

}  // namespace infergate

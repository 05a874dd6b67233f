// A router target: `infergate router --replicas N` over `infergate serve` replicas, each an engine
// of the workload's model and engine config, started afresh for each repetition (so no replica
// keeps the last repetition's prefix cache) and driven over HTTP like an openai target. The
// workload's faults are injected into it: the replica is SIGKILLed at its time or request count
// and the router restarts it. When the run ends, the router's own figures (per-replica load,
// prefix hit rates, retries, migrations and their delay) join the HTTP client's in the results
// (docs/router.md, docs/workload-schema.md).
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bench/targets/kv_handoff_figures.h"
#include "bench/targets/openai_target.h"
#include "bench/workload/workload.h"
#include "common/http/child_server.h"

namespace infergate {

class RouterTarget final : public Target {
 public:
  // Starts the router (running `program` with `replica_workload` for its replicas: a workload
  // file whose engine target they serve) with spec.router's workers (prefill workers among them
  // when disaggregated) and waits until all are in rotation. Throws std::runtime_error when the
  // router or a replica cannot start. `tokenizer`: the replicas' model's, for chat prompts;
  // `structured`: the workload's structured-output requests (null: none), sent with their
  // structure unless !constrain.
  RouterTarget(const std::string& program, const TargetSpec& spec,
               const std::string& replica_workload, std::vector<FaultSpec> faults,
               const SamplingSpec& sampling = {},
               std::optional<DatasetTokenizer> tokenizer = std::nullopt,
               std::shared_ptr<const StructuredRequests> structured = nullptr,
               bool constrain = true);
  ~RouterTarget() override;

  void start(TargetEventSink sink) override;
  void submit(uint64_t index, const std::vector<int32_t>& prompt, int max_tokens) override;
  void stop() override;
  // The HTTP client's counters and the replicas' load; after stop(), all the router's figures.
  TargetStats stats() const override;
  int32_t vocab_size() const override { return client_->vocab_size(); }

 private:
  // Injects the faults when due and asks the router for its replicas' load every
  // kPollInterval, until stop().
  void monitor();
  void poll_replicas();
  RouterRecord::Fault kill_replica(int replica);
  RouterRecord read_router() const;
  // A disaggregated answer's handoff record (kv_transfer), for the figures.
  void note_handoff(const TargetEvent& e);
  RouterRecord::Disaggregation handoff_figures() const;

  std::string policy_;
  RouterTargetSpec workers_;
  std::vector<FaultSpec> faults_;
  std::unique_ptr<ChildServer> router_;
  std::unique_ptr<OpenAiTarget> client_;
  int64_t started_ns_ = 0;

  mutable std::mutex mutex_;  // guards what follows
  std::condition_variable wake_;
  int64_t submitted_ = 0;
  bool stopping_ = false;
  std::vector<RouterRecord::Fault> injected_;
  std::optional<RouterRecord> final_;
  std::optional<RouterRecord> live_;  // the last poll's
  std::vector<KvHandoffRecord> handoffs_;
  std::thread monitor_thread_;
};

}  // namespace infergate

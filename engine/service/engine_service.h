// The engine on its own thread: the one loop that drives an Engine, behind the HTTP server and
// the harness's in-process target alike (as vLLM's EngineCore is behind both its server and its
// benchmarks), so what the harness measures in-process is the loop `serve` runs. Submissions
// and aborts queue under a mutex and are taken in at the top of every step, so a request
// arriving mid-step waits for the step to end; each request's outputs go to the sink it was
// submitted with, called on the engine thread. A step that throws EngineFailure (or anything
// else the engine did not contain) stops the service: every request ends with an error, later
// submissions are refused, and the failure handler is told once (docs/server.md).
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "engine/core/engine.h"

namespace infergate {

// Why a request got no output at all.
enum class Refusal {
  kNone,
  kInvalid,       // the engine refused it (add_request threw): `error` says why
  kShuttingDown,  // submitted or still queued when stop() came
};

// One step's output for one request, or its refusal (`refusal` set, then nothing more comes).
struct ServiceEvent {
  RequestOutput output;
  Refusal refusal = Refusal::kNone;
  std::string error;
  // Prefill/decode handoff (KvHandoff): on the request's first event, the imported blocks the
  // engine adopted; on its last, the prompt's KV blocks when asked to export them.
  int kv_blocks_imported = 0;
  std::shared_ptr<KvBlocks> exported_kv;
};

// A submission's part in a prefill/decode handoff (docs/disaggregation.md).
struct KvHandoff {
  // The last event carries the KV of the prompt's full blocks, read right after the final step
  // (before any later step can evict them).
  bool export_prompt_kv = false;
  // Adopted as the prompt's cached prefix just before the request is admitted.
  std::shared_ptr<const KvBlocks> import;
};
// Called on the engine thread: must not block (post the event to the session and return).
using EventSink = std::function<void(ServiceEvent)>;

class EngineService {
 public:
  // Starts the engine thread.
  explicit EngineService(std::unique_ptr<Engine> engine);
  ~EngineService();  // stop()

  // The engine, for what does not change after construction (model config, vocabulary, limits).
  const Engine& engine() const { return *engine_; }

  // Thread-safe. The sink sees every output of the request, the last one with `finished`.
  void submit(RequestId id, std::vector<int32_t> prompt, SamplingParams params, EventSink sink,
              KvHandoff handoff = {});
  // Thread-safe. Calls `done` on the engine thread (it must not block) with how many of
  // `tokens`' leading full blocks the prefix cache holds before the next step.
  void count_cached_prefix(std::vector<int32_t> tokens, std::function<void(int)> done);
  // Thread-safe. Frees the request's KV blocks at the next step; its sink gets the abort.
  void abort(const RequestId& id);
  // Aborts everything in flight (each sink gets its abort or a refusal) and joins the thread.
  void stop();

  // As of the latest step (thread-safe).
  EngineStats stats() const;

  // Called once, on the engine thread, when a step fails so that the engine cannot go on (the
  // cause as text). Set it before submitting anything.
  void set_failure_handler(std::function<void(const std::string&)> handler);
  // The cause of that failure; empty while the engine is sound (thread-safe).
  std::string failure() const;

 private:
  struct Submission {
    RequestId id;
    std::vector<int32_t> prompt;
    SamplingParams params;
    EventSink sink;
    KvHandoff handoff;
  };
  struct PrefixCount {
    std::vector<int32_t> tokens;
    std::function<void(int)> done;
  };
  struct Admitted {
    EventSink sink;
    std::vector<int32_t> exported_prompt;  // non-empty: export its KV when it finishes
    int kv_blocks_imported = 0;            // told on the first event, then 0
  };
  void loop();
  void admit(std::vector<Submission>& batch);
  void count_prefixes(std::vector<PrefixCount>& counts);
  void publish(std::vector<RequestOutput> outputs);
  void abort_all();
  // The engine failed at a step: ends everything without touching it again.
  void fail(const std::string& cause);

  std::unique_ptr<Engine> engine_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Submission> queue_;
  std::vector<RequestId> aborts_;
  std::vector<PrefixCount> prefix_counts_;
  bool stopping_ = false;
  std::string failure_;  // under mutex_
  std::function<void(const std::string&)> on_failure_;
  std::unordered_map<RequestId, Admitted> admitted_;  // not finished (engine thread)
  mutable std::mutex stats_mutex_;
  EngineStats stats_;
  std::thread thread_;  // last: starts once everything above exists
};

}  // namespace infergate

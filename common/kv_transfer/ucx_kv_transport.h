// The KV handoff's transport: UCX one-sided reads. A prefill worker exposes a prompt's KV blocks
// (copied into its registered export arena, export_arena.h) and tells the decode worker where they
// are in its HTTP answer (KvSource); the decode worker reads the blocks it lacks with ucp_get_nbx
// into a buffer of its own, then sends the prefill worker a release message. One thread per
// transport owns the UCX worker and progresses it: it also serves the reads on the prefill side
// (UCX emulates them over TCP with messages) and drops exports nobody released within their time to
// live. Every read has a deadline, so a peer that never answers costs its timeout, never a hang.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/kv_transfer/kv_source.h"

namespace infergate {

struct KvTransportOptions {
  // The exports' arena (address space, taken as used): beyond, none exported.
  size_t max_exported_bytes = size_t(1) << 30;
  double export_ttl_s = 60;  // an export not released within this is dropped (reads time out first)
  // Caps the rate of this transport's reads, all of them together (0: none), to measure a
  // slower link on one machine (pd-slow-link): reads are split into chunks, each started once
  // it would have crossed the capped link after the chunks before it.
  double max_read_bytes_per_s = 0;
  // UCX's peer failure detection on the read endpoints. In UCX 1.13 it rules out shared memory
  // (only TCP detects a dead peer), so it is off by default: a read from a dead or vanished
  // prefill worker then fails (CMA reports it) or times out, and its endpoint is dropped.
  bool peer_failure_detection = false;
};

struct KvFetchResult {
  bool ok = false;
  std::string error;             // why not, when !ok
  std::vector<std::byte> bytes;  // the blocks read, end to end
  double seconds = 0;            // from the call to the last byte (or the failure)
};

struct KvTransportStats {
  int64_t exports = 0;           // exposed
  int64_t exports_refused = 0;   // over max_exported_bytes
  int64_t exports_released = 0;  // by the decode worker
  int64_t exports_expired = 0;   // past export_ttl_s
  int64_t exports_held = 0;      // now
  int64_t exported_bytes_held = 0;
  int64_t fetches = 0;  // reads finished, ok or not
  int64_t fetch_failures = 0;
  int64_t fetched_bytes = 0;
  double fetch_seconds = 0;
};

class UcxKvTransport {
 public:
  // Throws std::runtime_error naming the UCX call that failed.
  explicit UcxKvTransport(KvTransportOptions options);
  ~UcxKvTransport();
  UcxKvTransport(const UcxKvTransport&) = delete;
  UcxKvTransport& operator=(const UcxKvTransport&) = delete;

  // Prefill side, any thread: holds `bytes` (num_blocks blocks of block_nbytes) for a decode
  // worker to read. nullopt when holding them would pass max_exported_bytes. The source names
  // the arena it lies in; the caller binds it to its tokens and signs it (kv_handoff.h).
  std::optional<KvSource> expose(std::vector<std::byte> bytes, size_t block_nbytes, int num_blocks);

  // Decode side, any thread: reads blocks [first, first + count) of `source`, then releases the
  // export at its worker. UCX takes the source's worker address and remote key as they are:
  // only a source that passed kv_source_refusal (kv_source_check.h) may be given. `done` runs on
  // the transport's thread, at the latest timeout_s after this call, and must not block.
  void fetch(const KvSource& source, int first, int count, double timeout_s,
             std::function<void(KvFetchResult)> done);

  KvTransportStats stats() const;

  struct State;  // UCX handles and the thread's work, in ucx_kv_transport.cc

 private:
  std::unique_ptr<State> state_;
};

}  // namespace infergate

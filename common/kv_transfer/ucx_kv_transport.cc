#include "common/kv_transfer/ucx_kv_transport.h"

#include "common/kv_transfer/export_arena.h"
#include "common/kv_transfer/kv_source_check.h"

#include <poll.h>
#include <ucp/api/ucp.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <deque>
#include <list>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unordered_map>

namespace infergate {

namespace {

using Clock = std::chrono::steady_clock;
constexpr unsigned kReleaseMessage = 1;  // UCX active message id: "done reading export N"
constexpr size_t kReadChunkBytes = size_t(1) << 20;
// Every export ends in a canary word, cleared before the export is dropped and read after the
// blocks: a reader that finds it intact read the blocks while they were still exported, so an
// export dropped mid-read (expired) can never pass for KV.
constexpr uint64_t kCanaryMagic = 0x6b76657870727421;  // "kvexprt!"
uint64_t canary_of(uint64_t export_id) { return export_id ^ kCanaryMagic; }

void check(ucs_status_t status, const char* call) {
  if (status != UCS_OK) {
    throw std::runtime_error(std::string("UCX: ") + call + " failed: " + ucs_status_string(status));
  }
}

Clock::duration seconds(double s) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

// A prefill worker's blocks in the arena, readable until released or expired.
struct Export {
  size_t offset = 0;      // in the arena
  size_t bytes = 0;       // the blocks and the canary
  size_t data_bytes = 0;  // the blocks
  Clock::time_point expires;
};

// An endpoint to one peer worker, reused by every read from it until it fails.
struct Peer {
  ucp_ep_h ep = nullptr;
  bool failed = false;
};

struct FetchJob {
  KvSource source;
  int first = 0;
  int count = 0;
  Clock::time_point start, deadline;
  std::function<void(KvFetchResult)> done;
};

// A read in progress: its chunks are posted as the pacing allows and each request is held until
// UCX completes it (after a timeout too, since UCX may still write into the buffer).
struct ActiveFetch {
  FetchJob job;
  std::shared_ptr<Peer> peer;
  ucp_rkey_h rkey = nullptr;
  std::vector<std::byte> buffer;
  size_t posted = 0;  // bytes whose read was started
  std::vector<void*> requests;
  bool canary_posted = false;  // the canary is read once every block has arrived
  uint64_t canary = 0;
  std::string error;
  bool reported = false;
};

struct PendingSend {  // a release message until UCX is done with its header
  void* request = nullptr;
  std::unique_ptr<uint64_t> header;
  std::shared_ptr<Peer> peer;
};

}  // namespace

struct UcxKvTransport::State {
  KvTransportOptions options;
  ucp_context_h context = nullptr;
  ucp_worker_h worker = nullptr;
  std::string address;  // this worker's, as bytes
  int event_fd = -1;

  std::unique_ptr<ExportArena> arena;  // registered once: arena_memh, arena_rkey
  ucp_mem_h arena_memh = nullptr;
  std::string arena_rkey;

  mutable std::mutex mutex;  // guards what other threads touch: arena, exports, jobs, stats
  std::map<uint64_t, Export> exports;
  uint64_t next_export = 1;
  size_t exported_bytes = 0;
  std::deque<FetchJob> jobs;
  KvTransportStats stats;
  bool stopping = false;

  // The transport thread's alone.
  std::unordered_map<std::string, std::shared_ptr<Peer>> peers;
  std::list<ActiveFetch> active;
  Clock::time_point link_free_at;  // --kv-read-rate-mb-s: when the capped link is next free
  std::list<PendingSend> sends;
  std::vector<std::shared_ptr<Peer>> retired;  // failed: closed once no read holds them
  std::list<void*> closing;                    // their close requests
  std::thread thread;

  void run();
  void start(FetchJob job);
  std::shared_ptr<Peer> peer_for(const std::string& worker_address);
  void advance(ActiveFetch& f, Clock::time_point now);
  void post_chunks(ActiveFetch& f, Clock::time_point now);
  void post_canary(ActiveFetch& f);
  void finish(ActiveFetch& f, Clock::time_point now);
  void send_release(const std::shared_ptr<Peer>& peer, uint64_t export_id);
  void drop_export_locked(std::map<uint64_t, Export>::iterator it);
  void expire_exports(Clock::time_point now);
  void reap_sends();
  void close_retired();
  void shut_down();
  void register_arena();
};

void UcxKvTransport::State::register_arena() {
  arena = std::make_unique<ExportArena>(options.max_exported_bytes);
  ucp_mem_map_params_t mp{};
  mp.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH;
  mp.address = arena->base();
  mp.length = arena->size();
  check(ucp_mem_map(context, &mp, &arena_memh), "ucp_mem_map");
  void* rkey = nullptr;
  size_t length = 0;
  check(ucp_rkey_pack(context, arena_memh, &rkey, &length), "ucp_rkey_pack");
  arena_rkey.assign(static_cast<const char*>(rkey), length);
  ucp_rkey_buffer_release(rkey);
}

namespace {

ucs_status_t on_release(void* arg, const void* header, size_t header_length, void*, size_t,
                        const ucp_am_recv_param_t*) {
  auto* state = static_cast<UcxKvTransport::State*>(arg);
  if (header_length != sizeof(uint64_t)) return UCS_OK;  // not ours: ignore
  uint64_t id = 0;
  std::memcpy(&id, header, sizeof id);
  std::lock_guard<std::mutex> lock(state->mutex);
  auto it = state->exports.find(id);
  if (it != state->exports.end()) {
    state->drop_export_locked(it);
    ++state->stats.exports_released;
  }
  return UCS_OK;
}

void on_peer_error(void* arg, ucp_ep_h, ucs_status_t) { static_cast<Peer*>(arg)->failed = true; }

}  // namespace

UcxKvTransport::UcxKvTransport(KvTransportOptions options) : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.options = options;
  ucp_params_t params{};
  params.field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED;
  params.features = UCP_FEATURE_RMA | UCP_FEATURE_AM | UCP_FEATURE_WAKEUP;
  params.mt_workers_shared = 1;  // expose() registers memory on the caller's thread
  check(ucp_init(&params, nullptr, &s.context), "ucp_init");
  ucp_worker_params_t wp{};
  wp.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
  wp.thread_mode = UCS_THREAD_MODE_SINGLE;  // only the transport thread touches the worker
  try {
    check(ucp_worker_create(s.context, &wp, &s.worker), "ucp_worker_create");
    ucp_address_t* address = nullptr;
    size_t length = 0;
    check(ucp_worker_get_address(s.worker, &address, &length), "ucp_worker_get_address");
    s.address.assign(reinterpret_cast<const char*>(address), length);
    ucp_worker_release_address(s.worker, address);
    check(ucp_worker_get_efd(s.worker, &s.event_fd), "ucp_worker_get_efd");
    ucp_am_handler_param_t handler{};
    handler.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB |
                         UCP_AM_HANDLER_PARAM_FIELD_ARG;
    handler.id = kReleaseMessage;
    handler.cb = on_release;
    handler.arg = &s;
    check(ucp_worker_set_am_recv_handler(s.worker, &handler), "ucp_worker_set_am_recv_handler");
    s.register_arena();
  } catch (...) {
    if (s.arena_memh) ucp_mem_unmap(s.context, s.arena_memh);
    if (s.worker) ucp_worker_destroy(s.worker);
    ucp_cleanup(s.context);
    throw;
  }
  s.thread = std::thread([&s] { s.run(); });
}

UcxKvTransport::~UcxKvTransport() {
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->stopping = true;
  }
  ucp_worker_signal(state_->worker);
  state_->thread.join();
}

std::optional<KvSource> UcxKvTransport::expose(std::vector<std::byte> bytes, size_t block_nbytes,
                                               int num_blocks) {
  if (bytes.size() != block_nbytes * size_t(num_blocks)) {
    throw std::invalid_argument("an export of " + std::to_string(num_blocks) + " blocks of " +
                                std::to_string(block_nbytes) + " bytes cannot hold " +
                                std::to_string(bytes.size()) + " bytes");
  }
  State& s = *state_;
  Export e;
  e.data_bytes = bytes.size();
  e.bytes = e.data_bytes + sizeof(uint64_t);
  uint64_t id = 0;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    const std::optional<size_t> offset = s.arena->allocate(e.bytes);
    if (!offset) {
      ++s.stats.exports_refused;
      return std::nullopt;
    }
    e.offset = *offset;
    id = s.next_export++;
  }
  // The range is ours alone until it is listed below: copied without the lock.
  const uint64_t canary = canary_of(id);
  std::byte* at = s.arena->base() + e.offset;
  std::memcpy(at, bytes.data(), e.data_bytes);
  std::memcpy(at + e.data_bytes, &canary, sizeof canary);
  e.expires = Clock::now() + seconds(s.options.export_ttl_s);
  KvSource source;
  source.worker = s.address;
  source.rkey = s.arena_rkey;
  source.address = reinterpret_cast<uint64_t>(at);
  source.block_nbytes = block_nbytes;
  source.num_blocks = num_blocks;
  source.export_id = id;
  source.arena_address = reinterpret_cast<uint64_t>(s.arena->base());
  source.arena_bytes = s.arena->size();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.exported_bytes += e.data_bytes;
  ++s.stats.exports;
  s.exports.emplace(id, e);
  return source;
}

void UcxKvTransport::fetch(const KvSource& source, int first, int count, double timeout_s,
                           std::function<void(KvFetchResult)> done) {
  FetchJob job{source, first, count, Clock::now(), {}, std::move(done)};
  job.deadline = job.start + seconds(timeout_s);
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->jobs.push_back(std::move(job));
  }
  ucp_worker_signal(state_->worker);
}

KvTransportStats UcxKvTransport::stats() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  KvTransportStats out = state_->stats;
  out.exports_held = int64_t(state_->exports.size());
  out.exported_bytes_held = int64_t(state_->exported_bytes);
  return out;
}

void UcxKvTransport::State::run() {
  for (;;) {
    std::deque<FetchJob> started;
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (stopping) break;
      started.swap(jobs);
    }
    for (FetchJob& job : started) start(std::move(job));
    while (ucp_worker_progress(worker) != 0) {
    }
    const Clock::time_point now = Clock::now();
    for (auto it = active.begin(); it != active.end();) {
      advance(*it, now);
      if (!it->requests.empty() || !it->reported) {
        ++it;
        continue;
      }
      if (it->rkey) ucp_rkey_destroy(it->rkey);
      it = active.erase(it);
    }
    reap_sends();
    close_retired();
    expire_exports(now);
    // Sleep until UCX has an event or a job arrives (ucp_worker_signal); wake anyway to pace
    // reads and check deadlines.
    if (ucp_worker_arm(worker) == UCS_OK) {
      pollfd fd{event_fd, POLLIN, 0};
      const bool pacing = options.max_read_bytes_per_s > 0 && !active.empty();
      poll(&fd, 1, pacing ? 1 : (active.empty() ? 50 : 5));
    }
  }
  shut_down();
}

std::shared_ptr<Peer> UcxKvTransport::State::peer_for(const std::string& worker_address) {
  auto it = peers.find(worker_address);
  if (it != peers.end() && !it->second->failed) return it->second;
  if (it != peers.end()) {
    retired.push_back(it->second);
    peers.erase(it);
  }
  auto peer = std::make_shared<Peer>();
  ucp_ep_params_t ep{};
  ep.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE |
                  UCP_EP_PARAM_FIELD_ERR_HANDLER;
  ep.address = reinterpret_cast<const ucp_address_t*>(worker_address.data());
  ep.err_mode =
      options.peer_failure_detection ? UCP_ERR_HANDLING_MODE_PEER : UCP_ERR_HANDLING_MODE_NONE;
  ep.err_handler.cb = on_peer_error;
  ep.err_handler.arg = peer.get();
  const ucs_status_t status = ucp_ep_create(worker, &ep, &peer->ep);
  if (status != UCS_OK) {
    throw std::runtime_error(std::string("cannot reach the prefill worker: ucp_ep_create: ") +
                             ucs_status_string(status));
  }
  peers[worker_address] = peer;
  return peer;
}

void UcxKvTransport::State::start(FetchJob job) {
  ActiveFetch& f = active.emplace_back();
  f.job = std::move(job);
  const KvSource& src = f.job.source;
  if (f.job.first < 0 || f.job.count < 0 || f.job.first + f.job.count > src.num_blocks) {
    f.error = "blocks [" + std::to_string(f.job.first) + ", " +
              std::to_string(f.job.first + f.job.count) + ") are not all in an export of " +
              std::to_string(src.num_blocks);
    return;
  }
  if (f.error = kv_source_range_refusal(src); !f.error.empty()) return;
  try {
    f.peer = peer_for(src.worker);
  } catch (const std::exception& e) {
    f.error = e.what();
    return;
  }
  const ucs_status_t unpacked = ucp_ep_rkey_unpack(f.peer->ep, src.rkey.data(), &f.rkey);
  if (unpacked != UCS_OK) {
    f.error = std::string("the export's remote key: ") + ucs_status_string(unpacked);
    return;
  }
  f.buffer.resize(size_t(f.job.count) * src.block_nbytes);
}

void UcxKvTransport::State::post_chunks(ActiveFetch& f, Clock::time_point now) {
  const double rate = options.max_read_bytes_per_s;
  const uint64_t base = f.job.source.address + uint64_t(f.job.first) * f.job.source.block_nbytes;
  // Capped, chunks are small enough to pace smoothly (5 ms of the link, at least 4 KiB).
  const size_t chunk =
      rate > 0 ? std::clamp(size_t(rate * 0.005), size_t(4096), kReadChunkBytes) : kReadChunkBytes;
  while (f.posted < f.buffer.size()) {
    const size_t n = std::min(chunk, f.buffer.size() - f.posted);
    // Paced: one link for every read of this transport, each chunk started once it would have
    // crossed it after the chunks before it (of any read), so B bytes take at least B / rate.
    if (rate > 0) {
      const Clock::time_point crossed =
          std::max(link_free_at, f.job.start) + seconds(double(n) / rate);
      if (now < crossed) return;
      link_free_at = crossed;
    }
    ucp_request_param_t param{};
    void* r =
        ucp_get_nbx(f.peer->ep, f.buffer.data() + f.posted, n, base + f.posted, f.rkey, &param);
    if (UCS_PTR_IS_ERR(r)) {
      f.error = std::string("ucp_get_nbx: ") + ucs_status_string(UCS_PTR_STATUS(r));
      return;
    }
    if (r != nullptr) f.requests.push_back(r);
    f.posted += n;
  }
}

void UcxKvTransport::State::post_canary(ActiveFetch& f) {
  f.canary_posted = true;
  const KvSource& src = f.job.source;
  ucp_request_param_t param{};
  void* r = ucp_get_nbx(f.peer->ep, &f.canary, sizeof f.canary,
                        src.address + src.block_nbytes * uint64_t(src.num_blocks), f.rkey, &param);
  if (UCS_PTR_IS_ERR(r)) {
    f.error = std::string("ucp_get_nbx: ") + ucs_status_string(UCS_PTR_STATUS(r));
  } else if (r != nullptr) {
    f.requests.push_back(r);
  }
}

void UcxKvTransport::State::advance(ActiveFetch& f, Clock::time_point now) {
  std::erase_if(f.requests, [&](void* r) {
    const ucs_status_t status = ucp_request_check_status(r);
    if (status == UCS_INPROGRESS) return false;
    if (status != UCS_OK && f.error.empty()) {
      f.error = std::string("reading the export: ") + ucs_status_string(status);
    }
    ucp_request_free(r);
    return true;
  });
  if (f.reported) return;
  if (f.error.empty() && f.peer && f.peer->failed) f.error = "the prefill worker is unreachable";
  if (f.error.empty() && f.rkey && f.posted < f.buffer.size()) post_chunks(f, now);
  if (f.error.empty() && f.rkey && !f.canary_posted && f.posted == f.buffer.size() &&
      f.requests.empty()) {
    post_canary(f);
    return;  // not finished before the canary is in
  }
  if (f.error.empty() && now >= f.job.deadline &&
      (!f.requests.empty() || f.posted < f.buffer.size())) {
    f.error = "timed out reading the KV blocks";
    for (void* r : f.requests) ucp_request_cancel(worker, r);
  }
  if (f.error.empty() && f.canary_posted && f.requests.empty() &&
      f.canary != canary_of(f.job.source.export_id)) {
    f.error =
        "the export was dropped before the read ended (expired, or the prefill worker "
        "restarted)";
  }
  const bool read = f.canary_posted && f.requests.empty();
  if (!f.error.empty() || read) finish(f, now);
}

void UcxKvTransport::State::finish(ActiveFetch& f, Clock::time_point now) {
  f.reported = true;
  KvFetchResult result;
  result.ok = f.error.empty();
  result.error = f.error;
  result.seconds = std::chrono::duration<double>(now - f.job.start).count();
  if (result.ok) {
    result.bytes = std::move(f.buffer);
    send_release(f.peer, f.job.source.export_id);
  } else if (f.peer && !f.peer->failed) {
    f.peer->failed = true;  // a timed-out endpoint is not trusted again: the next read opens one
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    ++stats.fetches;
    if (!result.ok) ++stats.fetch_failures;
    stats.fetched_bytes += int64_t(result.bytes.size());
    stats.fetch_seconds += result.seconds;
  }
  f.job.done(std::move(result));
}

void UcxKvTransport::State::send_release(const std::shared_ptr<Peer>& peer, uint64_t export_id) {
  PendingSend send{nullptr, std::make_unique<uint64_t>(export_id), peer};
  ucp_request_param_t param{};
  void* r = ucp_am_send_nbx(peer->ep, kReleaseMessage, send.header.get(), sizeof(uint64_t), nullptr,
                            0, &param);
  if (r == nullptr || UCS_PTR_IS_ERR(r)) return;  // sent, or lost: the export expires
  send.request = r;
  sends.push_back(std::move(send));
}

void UcxKvTransport::State::reap_sends() {
  std::erase_if(sends, [](PendingSend& s) {
    if (ucp_request_check_status(s.request) == UCS_INPROGRESS) return false;
    ucp_request_free(s.request);
    return true;
  });
}

void UcxKvTransport::State::close_retired() {
  std::erase_if(retired, [&](const std::shared_ptr<Peer>& peer) {
    if (peer.use_count() > 1) return false;
    ucp_request_param_t param{};
    param.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
    param.flags = UCP_EP_CLOSE_FLAG_FORCE;
    void* r = ucp_ep_close_nbx(peer->ep, &param);
    if (r != nullptr && !UCS_PTR_IS_ERR(r)) closing.push_back(r);
    return true;
  });
  std::erase_if(closing, [](void* r) {
    if (ucp_request_check_status(r) == UCS_INPROGRESS) return false;
    ucp_request_free(r);
    return true;
  });
}

void UcxKvTransport::State::drop_export_locked(std::map<uint64_t, Export>::iterator it) {
  const Export& e = it->second;
  const uint64_t cleared = 0;
  std::memcpy(arena->base() + e.offset + e.data_bytes, &cleared, sizeof cleared);
  std::atomic_thread_fence(std::memory_order_seq_cst);  // cleared before the range is reused
  arena->release(e.offset, e.bytes);
  exported_bytes -= e.data_bytes;
  exports.erase(it);
}

void UcxKvTransport::State::expire_exports(Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mutex);
  for (auto it = exports.begin(); it != exports.end();) {
    auto next = std::next(it);
    if (it->second.expires <= now) {
      drop_export_locked(it);
      ++stats.exports_expired;
    }
    it = next;
  }
}

void UcxKvTransport::State::shut_down() {
  std::deque<FetchJob> never_started;
  {
    std::lock_guard<std::mutex> lock(mutex);
    never_started.swap(jobs);
  }
  for (FetchJob& job : never_started) {
    ActiveFetch& f = active.emplace_back();
    f.job = std::move(job);
  }
  for (ActiveFetch& f : active) {
    for (void* r : f.requests) ucp_request_cancel(worker, r);
    if (!f.reported) {
      f.error = "the transport is shutting down";
      finish(f, Clock::now());
    }
  }
  // Force-closing every endpoint completes whatever is still in flight; then the worker goes.
  for (auto& entry : peers) retired.push_back(entry.second);
  for (const std::shared_ptr<Peer>& peer : retired) {
    ucp_request_param_t param{};
    param.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
    param.flags = UCP_EP_CLOSE_FLAG_FORCE;
    void* r = ucp_ep_close_nbx(peer->ep, &param);
    if (r != nullptr && !UCS_PTR_IS_ERR(r)) {
      const Clock::time_point give_up = Clock::now() + seconds(1);
      while (ucp_request_check_status(r) == UCS_INPROGRESS && Clock::now() < give_up) {
        ucp_worker_progress(worker);
      }
      ucp_request_free(r);
    }
  }
  for (ActiveFetch& f : active) {
    for (void* r : f.requests) ucp_request_free(r);
    if (f.rkey) ucp_rkey_destroy(f.rkey);
  }
  for (PendingSend& send : sends) ucp_request_free(send.request);
  for (void* r : closing) ucp_request_free(r);
  {
    std::lock_guard<std::mutex> lock(mutex);
    while (!exports.empty()) drop_export_locked(exports.begin());
  }
  ucp_mem_unmap(context, arena_memh);
  ucp_worker_destroy(worker);
  ucp_cleanup(context);
}

}  // namespace infergate

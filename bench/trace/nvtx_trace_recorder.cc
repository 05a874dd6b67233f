#include "bench/trace/nvtx_trace_recorder.h"

#include <unistd.h>

#include <algorithm>
#include <map>
#include <set>

#include "bench/trace/nvtx_capture.h"
#include "common/util/clock.h"

namespace infergate {
namespace {

struct Window {
  int64_t begin_ns;
  int64_t end_ns;
};

// NVTX push/pop nest per thread and per domain. A pop with nothing open belongs to a push made
// before recording started: dropped. Ranges open at the end are clipped to the window.
void pair_ranges(const NvtxThreadEvents& thread, const std::vector<std::string>& domains,
                 Window window, std::vector<TraceSlice>* out) {
  const size_t first = out->size();
  std::map<uint16_t, std::vector<TraceSlice>> open;
  auto domain_name = [&](uint16_t d) { return d < domains.size() ? domains[d] : std::string(); };
  auto close = [&](TraceSlice slice, int64_t end_ns) {
    slice.unfinished = end_ns > window.end_ns;
    slice.end_ns = std::min(end_ns, window.end_ns);
    out->push_back(std::move(slice));
  };
  for (const NvtxEvent& e : thread.events) {
    if (e.kind == NvtxEvent::Kind::kPop) {
      std::vector<TraceSlice>& stack = open[e.domain];
      if (stack.empty()) continue;
      close(std::move(stack.back()), e.time_ns);
      stack.pop_back();
      continue;
    }
    if (e.time_ns < window.begin_ns || e.time_ns > window.end_ns) continue;
    TraceSlice slice;
    slice.tid = thread.tid;
    slice.domain = domain_name(e.domain);
    slice.name = e.name;
    slice.begin_ns = slice.end_ns = e.time_ns;
    if (e.kind == NvtxEvent::Kind::kMark) {
      slice.mark = true;
      out->push_back(std::move(slice));
    } else {
      slice.depth = static_cast<int>(open[e.domain].size());
      open[e.domain].push_back(std::move(slice));
    }
  }
  for (auto& [domain, stack] : open) {
    for (TraceSlice& slice : stack) close(std::move(slice), INT64_MAX);
  }
  // Call order (ranges were appended as they closed); an enclosing range before its children.
  std::stable_sort(out->begin() + static_cast<std::ptrdiff_t>(first), out->end(),
                   [](const TraceSlice& a, const TraceSlice& b) {
                     return a.begin_ns != b.begin_ns ? a.begin_ns < b.begin_ns : a.depth < b.depth;
                   });
}

std::vector<TraceSlice> pair_all(const std::vector<NvtxThreadEvents>& threads, Window window) {
  const std::vector<std::string> domains = nvtx_capture_domains();
  std::vector<TraceSlice> out;
  for (const NvtxThreadEvents& thread : threads) pair_ranges(thread, domains, window, &out);
  return out;
}

}  // namespace

bool NvtxTraceRecorder::install(std::string* why_not) { return install_nvtx_capture(why_not); }

bool NvtxTraceRecorder::installed() { return nvtx_capture_installed(); }

NvtxTraceRecorder::~NvtxTraceRecorder() { stop(); }

void NvtxTraceRecorder::start() {
  std::lock_guard<std::mutex> lock(mu_);
  if (running_) return;
  running_ = true;
  requests_.clear();
  gpu_spans_.clear();
  start_ns_ = now_ns();
  stop_ns_ = 0;
  nvtx_capture_begin();
}

void NvtxTraceRecorder::stop() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!running_) return;
  nvtx_capture_end();
  running_ = false;
  stop_ns_ = now_ns();
}

void NvtxTraceRecorder::add_request(uint64_t index, int64_t scheduled_ns, int64_t sent_ns,
                                    int64_t first_token_ns, int64_t finished_ns,
                                    const std::string& status, std::vector<TracePhase> phases) {
  std::lock_guard<std::mutex> lock(mu_);
  requests_.push_back(
      {index, scheduled_ns, sent_ns, first_token_ns, finished_ns, status, std::move(phases)});
}

void NvtxTraceRecorder::add_gpu_spans(const std::vector<TraceGpuSpan>& spans) {
  std::lock_guard<std::mutex> lock(mu_);
  gpu_spans_.insert(gpu_spans_.end(), spans.begin(), spans.end());
}

int64_t NvtxTraceRecorder::window_end_ns() const { return running_ ? now_ns() : stop_ns_; }

std::vector<TraceSlice> NvtxTraceRecorder::slices() const {
  std::unique_lock<std::mutex> lock(mu_);
  if (start_ns_ == 0) return {};  // never started
  const Window window{start_ns_, window_end_ns()};
  lock.unlock();
  return pair_all(nvtx_capture_snapshot(), window);
}

ChromeTrace NvtxTraceRecorder::chrome_trace() const {
  ChromeTrace trace;
  {
    std::lock_guard<std::mutex> lock(mu_);
    trace.requests = requests_;
    trace.gpu_spans = gpu_spans_;
    trace.origin_ns = start_ns_;
    trace.end_ns = start_ns_ == 0 ? now_ns() : window_end_ns();
  }
  const std::vector<NvtxThreadEvents> threads = nvtx_capture_snapshot();
  if (trace.origin_ns != 0) trace.slices = pair_all(threads, {trace.origin_ns, trace.end_ns});
  for (const TraceRequest& r : trace.requests) {
    for (int64_t t : {r.scheduled_ns, r.sent_ns}) {
      if (t != 0 && (trace.origin_ns == 0 || t < trace.origin_ns)) trace.origin_ns = t;
    }
  }
  std::set<int64_t> tids;
  for (const TraceSlice& s : trace.slices) tids.insert(s.tid);
  for (const NvtxThreadEvents& thread : threads) {
    if (tids.count(thread.tid)) trace.threads.push_back({thread.tid, thread.thread_name});
  }
  trace.pid = getpid();
  trace.other_data = {{"clock", "steady_clock"},
                      {"origin_ns", trace.origin_ns},
                      {"nvtx_captured", installed()},
                      {"nvtx_dropped_events", nvtx_capture_dropped()}};
  return trace;
}

void NvtxTraceRecorder::write_chrome_trace(const std::string& path) const {
  write_chrome_trace_file(chrome_trace(), path);
}

}  // namespace infergate

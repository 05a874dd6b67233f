// `infergate run --trace FILE`: the engine's NVTX ranges ("step", "schedule", "forward",
// "sample" in the "infergate" domain; common/util/nvtx_range.h) and the run's request lifetimes
// in one Chrome/Perfetto trace. NVTX stays the one instrumentation source: under Nsight Systems
// the same ranges go to nsys instead. docs/tracing.md has the user's view and measured costs.
//
//   std::string why;
//   if (!NvtxTraceRecorder::install(&why)) warn(why);  // first thing in main(), before any NVTX
//   NvtxTraceRecorder recorder;
//   recorder.start();
//   ... run; recorder.add_request(...) as requests finish ...
//   recorder.stop();
//   recorder.write_chrome_trace(path);
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "bench/trace/chrome_trace.h"

namespace infergate {

class NvtxTraceRecorder {
 public:
  // Hooks NVTX (through its static-injection pointer, in-process: bench/trace/nvtx_capture.cc)
  // so that range push/pop -- plain and per domain -- marks and thread names are recorded, per
  // thread, with steady-clock timestamps. NVTX initializes on its first call and never again, so
  // this must run before the first NVTX call in the process (before any engine is built); call
  // it early in main(). Returns true once hooked (and on every later call). Returns false, and
  // says why in *why_not, when NVTX already initialized without the hook, when another NVTX tool
  // is attached (NVTX_INJECTION64_PATH, as Nsight Systems sets it), or when built without NVTX;
  // the recorder then still records request lifetimes. Not installing costs nothing: NVTX calls
  // stay a load and a branch.
  static bool install(std::string* why_not = nullptr);
  static bool installed();

  NvtxTraceRecorder() = default;
  ~NvtxTraceRecorder();  // stops recording
  NvtxTraceRecorder(const NvtxTraceRecorder&) = delete;
  NvtxTraceRecorder& operator=(const NvtxTraceRecorder&) = delete;

  // Opens the recording window (and forgets requests and GPU spans of an earlier window). NVTX
  // calls are kept only while some recorder is started; a range still open at stop() ends there,
  // marked "unfinished". Calling start() twice, or stop() when stopped, does nothing.
  void start();
  void stop();

  // A finished (or abandoned) request; times in ns on common/util/clock.h, 0 for "never
  // happened". Drawn as "queued" (scheduled -> sent), "waiting for first token" (sent -> first
  // token) and "decoding" (first token -> finished). Thread-safe.
  void add_request(uint64_t index, int64_t scheduled_ns, int64_t sent_ns, int64_t first_token_ns,
                   int64_t finished_ns, const std::string& status,
                   std::vector<TracePhase> phases = {});

  // Kernels and copies the GPU ran (from CUPTI), drawn on one track per device and stream
  // ("GPU 0 stream 7"). Thread-safe.
  void add_gpu_spans(const std::vector<TraceGpuSpan>& spans);

  // The NVTX ranges and marks recorded in the window, by thread, in call order.
  std::vector<TraceSlice> slices() const;

  // Writes the Chrome Trace Event JSON (opens in ui.perfetto.dev) atomically: a temporary file,
  // then a rename. Throws std::runtime_error naming the path. Works while still recording.
  void write_chrome_trace(const std::string& path) const;

 private:
  int64_t window_end_ns() const;
  ChromeTrace chrome_trace() const;

  mutable std::mutex mu_;
  bool running_ = false;
  int64_t start_ns_ = 0;
  int64_t stop_ns_ = 0;
  std::vector<TraceRequest> requests_;
  std::vector<TraceGpuSpan> gpu_spans_;
};

}  // namespace infergate
